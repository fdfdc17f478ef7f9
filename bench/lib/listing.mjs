// The listing scenario (issue 22 item 5): N one-byte objects under 10 prefixes, then ListObjectsV2
// of the whole bucket in pages of 1000, a delimiter listing ("/" at the root: the 10 prefixes) and a
// prefix listing (one prefix, first page), against each server with the same client (the AWS SDK),
// in alternating rounds. Every full listing is checked: all N keys, in order, each with the size
// and ETag (MD5 of the byte) it was written with.

import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { lightClient, lightFullListing } from './listing-light.mjs';
import { cpuMsOf } from './load/proc-cpu.mjs';
import { median, round } from './stats.mjs';

// The AWS SDK is a dependency of cuobjtest (the bench's client), not of the repository root.
const requireSdk = createRequire(new URL('../../packages/cuobjtest/package.json', import.meta.url));
const sdk = requireSdk('@aws-sdk/client-s3');

const log = (...m) => console.error('[bench:listing]', ...m);
export const PREFIXES = 10;
const PAGE = 1000;
const FILL_CONCURRENCY = 32;

/** The i-th key: `p<i mod 10>/obj-<i, 7 digits>`; its body is one byte, i mod 256. */
export function keyOf(i) {
  return `p${i % PREFIXES}/obj-${String(i).padStart(7, '0')}`;
}
const bodyOf = (i) => Buffer.from([i % 256]);
const ETAGS = Array.from(
  { length: 256 },
  (_, b) =>
    `"${createHash('md5')
      .update(Buffer.from([b]))
      .digest('hex')}"`,
);

export function clientFor(server) {
  return new sdk.S3Client({
    endpoint: server.endpoint,
    region: server.region ?? 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: server.access, secretAccessKey: server.secret },
  });
}

async function bucketCount(client, bucket) {
  try {
    let n = 0;
    let token;
    do {
      const out = await client.send(
        new sdk.ListObjectsV2Command({ Bucket: bucket, ContinuationToken: token, MaxKeys: PAGE }),
      );
      n += out.KeyCount ?? 0;
      token = out.NextContinuationToken;
    } while (token);
    return n;
  } catch (err) {
    if (err?.name === 'NoSuchBucket') return undefined;
    throw err;
  }
}

/**
 * Creates `bucket` with `n` objects (reused as is when it already holds exactly `n`: a peer that
 * outlives the run keeps its filled buckets). Returns PUT/s of the fill (undefined when reused).
 */
export async function fill(client, bucket, n) {
  const have = await bucketCount(client, bucket);
  if (have === n) return undefined;
  if (have === undefined) await client.send(new sdk.CreateBucketCommand({ Bucket: bucket }));
  let next = 0;
  const t0 = performance.now();
  const worker = async () => {
    for (let i = next++; i < n; i = next++) {
      await client.send(new sdk.PutObjectCommand({ Bucket: bucket, Key: keyOf(i), Body: bodyOf(i) }));
    }
  };
  await Promise.all(Array.from({ length: FILL_CONCURRENCY }, worker));
  return n / ((performance.now() - t0) / 1000);
}

/** The object numbers in listing (key) order. */
const listingOrder = (n) =>
  Array.from({ length: n }, (_, i) => i).sort((a, b) => (keyOf(a) < keyOf(b) ? -1 : 1));

/** The whole bucket in pages of 1000: per-page and total milliseconds, and what was wrong. */
export async function fullListing(client, bucket, n) {
  const expected = listingOrder(n);
  const pages = [];
  const failures = [];
  let seen = 0;
  let token;
  const t0 = performance.now();
  do {
    const p0 = performance.now();
    const out = await client.send(
      new sdk.ListObjectsV2Command({ Bucket: bucket, ContinuationToken: token, MaxKeys: PAGE }),
    );
    pages.push(performance.now() - p0);
    for (const o of out.Contents ?? []) {
      const i = expected[seen++];
      if (failures.length >= 5) continue;
      if (o.Key !== keyOf(i)) failures.push(`#${seen}: key ${o.Key}, expected ${keyOf(i)}`);
      else if (o.Size !== 1 || o.ETag !== ETAGS[i % 256])
        failures.push(`${o.Key}: size ${o.Size} etag ${o.ETag}`);
      else if (!(o.LastModified instanceof Date)) failures.push(`${o.Key}: no LastModified`);
    }
    token = out.NextContinuationToken;
  } while (token);
  const totalMs = performance.now() - t0;
  if (seen !== n) failures.push(`listed ${seen} keys, expected ${n}`);
  return { totalMs, pages, failures };
}

/** ListObjectsV2 with delimiter "/" at the root, and the first page of one prefix. */
async function shapedListings(client, bucket) {
  const failures = [];
  let t = performance.now();
  const d = await client.send(new sdk.ListObjectsV2Command({ Bucket: bucket, Delimiter: '/' }));
  const delimiterMs = performance.now() - t;
  const cps = (d.CommonPrefixes ?? []).map((c) => c.Prefix);
  if (cps.length !== PREFIXES || (d.Contents ?? []).length !== 0)
    failures.push(`delimiter listing: ${cps.length} prefixes, ${(d.Contents ?? []).length} keys`);
  t = performance.now();
  const p = await client.send(
    new sdk.ListObjectsV2Command({ Bucket: bucket, Prefix: 'p3/', MaxKeys: PAGE, Delimiter: '/' }),
  );
  const prefixMs = performance.now() - t;
  if (!(p.Contents ?? []).every((o) => o.Key.startsWith('p3/')) || (p.Contents ?? []).length === 0)
    failures.push('prefix listing: keys outside p3/ or none');
  return { delimiterMs, prefixMs, failures };
}

/** A full listing with the server's and this client's CPU around it (ms). */
async function measured(server, run) {
  const cpu0 = { server: cpuMsOf(server.pids ?? []), client: process.cpuUsage() };
  const full = await run();
  const c = process.cpuUsage(cpu0.client);
  full.serverCpuMs = cpuMsOf(server.pids ?? []) - cpu0.server;
  full.clientCpuMs = (c.user + c.system) / 1000;
  return full;
}

function summariseFull(rounds) {
  return {
    totalMs: round(median(rounds.map((r) => r.totalMs)), 1),
    totalsMs: rounds.map((r) => round(r.totalMs, 1)),
    perPageMs: round(median(rounds.flatMap((r) => r.pages)), 2),
    serverCpuMs: round(median(rounds.map((r) => r.serverCpuMs)), 0),
    clientCpuMs: round(median(rounds.map((r) => r.clientCpuMs)), 0),
  };
}

function summarise(rounds) {
  const pages = rounds.flatMap((r) => r.pages);
  return {
    light: summariseFull(rounds.map((r) => r.light)),
    totalMs: round(median(rounds.map((r) => r.totalMs)), 1),
    totalsMs: rounds.map((r) => round(r.totalMs, 1)),
    perPageMs: {
      median: round(median(pages), 2),
      first: round(median(rounds.map((r) => r.pages[0])), 2),
      last: round(median(rounds.map((r) => r.pages.at(-1))), 2),
      max: round(Math.max(...pages), 2),
    },
    // CPU of the whole listing: the server's processes (from /proc, 10 ms ticks) and this client's
    serverCpuMs: round(median(rounds.map((r) => r.serverCpuMs)), 0),
    clientCpuMs: round(median(rounds.map((r) => r.clientCpuMs)), 0),
    delimiterMs: round(median(rounds.map((r) => r.delimiterMs)), 2),
    prefixMs: round(median(rounds.map((r) => r.prefixMs)), 2),
  };
}

/**
 * One key count against every server: fill, then `rounds` alternating rounds (server A, B, A, B…),
 * each a full listing then the delimiter and prefix listings. Ratios are peer / gateway time.
 */
export async function listingAt(servers, n, rounds, bucketPrefix) {
  const clients = servers.map(clientFor);
  const lights = servers.map(lightClient);
  const order = listingOrder(n);
  const expected = { key: (at) => keyOf(order[at]), etag: (at) => ETAGS[order[at] % 256] };
  const bucket = `${bucketPrefix}-${n}`;
  const fillRate = {};
  for (const [i, s] of servers.entries()) {
    log(`${s.name}: filling ${bucket} with ${n} objects`);
    const rate = await fill(clients[i], bucket, n);
    fillRate[s.name] = rate === undefined ? 'reused' : round(rate, 0);
    log(`${s.name}: ${rate === undefined ? 'reused' : `${round(rate, 0)} PUT/s`}`);
  }
  const runs = servers.map(() => []);
  const failures = [];
  for (let r = 0; r < rounds; r++) {
    for (const [i, s] of servers.entries()) {
      const full = await measured(s, () => fullListing(clients[i], bucket, n));
      const light = await measured(s, () => lightFullListing(lights[i], bucket, n, PAGE, expected));
      const shaped = await shapedListings(clients[i], bucket);
      runs[i].push({ ...full, ...shaped, light });
      for (const f of [...full.failures, ...light.failures, ...shaped.failures])
        failures.push(`${s.name}: ${f}`);
      log(
        `${s.name} round ${r + 1}: sdk ${round(full.totalMs, 0)} ms, light ${round(light.totalMs, 0)} ms (${full.pages.length} pages)`,
      );
    }
  }
  for (const c of [...clients, ...lights]) c.destroy();
  const bySrv = Object.fromEntries(servers.map((s, i) => [s.name, summarise(runs[i])]));
  const out = { keys: n, pageSize: PAGE, rounds, fillPutPerSec: fillRate, servers: bySrv, failures };
  const [gw, ...peers] = servers.map((s) => s.name);
  out.ratios = Object.fromEntries(
    peers.map((p) => [
      p,
      {
        full: round(bySrv[p].totalMs / bySrv[gw].totalMs, 2),
        serverCpu: round(bySrv[p].serverCpuMs / Math.max(1, bySrv[gw].serverCpuMs), 2),
        light: round(bySrv[p].light.totalMs / bySrv[gw].light.totalMs, 2),
        lightServerCpu: round(bySrv[p].light.serverCpuMs / Math.max(1, bySrv[gw].light.serverCpuMs), 2),
        delimiter: round(bySrv[p].delimiterMs / bySrv[gw].delimiterMs, 2),
        prefix: round(bySrv[p].prefixMs / bySrv[gw].prefixMs, 2),
      },
    ]),
  );
  return out;
}
