// The harness's measurements, each a function of (servers, plan) returning a JSON-ready object:
//   compare — RDMA vs std-s3 through the gateway, cuobjtest --compare (A B A B, per-pair ratios)
//   peers   — std-s3 through the gateway vs s3rver, alternating one cuobjtest run each per pair
//   ops     — 4 KiB PUT ops/s, gateway (std-s3 and RDMA) and s3rver, alternating
//   rss     — the gateway's peak RSS (VmHWM) under concurrent RDMA GETs of one size
// compare, peers and ops also carry `cpu`: the servers' (and the client's) CPU time in the timed
// windows, per operation and per GB, and which side bounds the throughput (lib/cpu.mjs).

import { randomFillSync } from 'node:crypto';
import { link, open } from 'node:fs/promises';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { cpuFigures } from './cpu.mjs';
import { cuobjtest } from './cuobjtest.mjs';
import { median, round, sizeName } from './stats.mjs';

const log = (...m) => console.error('[bench]', ...m);
const CPUS = cpus().length;
/** CPU figures of PUT and GET over the given cuobjtest results. */
const cpuOf = (results) => ({ put: cpuFigures(results, 'put', CPUS), get: cpuFigures(results, 'get', CPUS) });

export async function comparePhase(gateway, plan) {
  const rows = [];
  for (const { sizes, n } of plan.compare) {
    log(`rdma vs std-s3: ${sizes.map(sizeName).join(', ')} × ${n}`);
    const doc = await cuobjtest(gateway, [
      '--compare',
      '--sizes',
      sizes.map(sizeName).join(','),
      '-n',
      String(n),
      '-warmup',
      String(plan.warmup),
    ]);
    for (const size of sizes) {
      const rdma = doc.find((r) => r.mode === 'rdma' && r.sizeBytes === size);
      const std = doc.find((r) => r.mode === 'std-s3' && r.sizeBytes === size);
      rows.push({
        sizeBytes: size,
        iterations: n,
        transport: rdma?.transport,
        rdma: { putGBps: round(rdma?.put?.gbps), getGBps: round(rdma?.get?.gbps) },
        stdS3: { putGBps: round(std?.put?.gbps), getGBps: round(std?.get?.gbps) },
        ratio: { put: round(rdma?.vsStdS3?.put?.median), get: round(rdma?.vsStdS3?.get?.median) },
        pairs: { put: rdma?.vsStdS3?.put?.pairs, get: rdma?.vsStdS3?.get?.pairs },
        cpu: { rdma: cpuOf([rdma]), stdS3: cpuOf([std]) },
        verified: Boolean(rdma?.verified && std?.verified),
        failures: [...(rdma?.failures ?? []), ...(std?.failures ?? [])],
      });
    }
  }
  return rows;
}

/** Runs `args` against each server in turn, `n` times (A B A B); per-pair ratios of gateway / peer. */
async function alternate(gateway, peer, args, n, pick) {
  const runs = { gateway: [], peer: [] };
  for (let i = 0; i < n; i++) {
    runs.gateway.push(await cuobjtest(gateway, [...args, '-key', `alt-${i}`]));
    runs.peer.push(await cuobjtest(peer, [...args, '-key', `alt-${i}`]));
  }
  const ratios = (d) => runs.gateway.map((g, i) => pick(g, d) / pick(runs.peer[i], d));
  const medianOf = (side, d) => round(median(runs[side].map((r) => pick(r, d))));
  return { runs, ratios, medianOf };
}

export async function peersPhase(gateway, s3rver, plan) {
  const rows = [];
  for (const { sizes, n } of plan.peers)
    for (const size of sizes) {
      log(`std-s3 gateway vs s3rver: ${sizeName(size)} × ${n}`);
      const alt = await alternate(
        gateway,
        s3rver,
        ['-std-s3', '-size', sizeName(size), '-n', '1', '-warmup', String(plan.warmup)],
        n,
        (r, d) => r[d].gbps,
      );
      const all = [...alt.runs.gateway, ...alt.runs.peer];
      rows.push({
        sizeBytes: size,
        iterations: n,
        gatewayStdS3: { putGBps: alt.medianOf('gateway', 'put'), getGBps: alt.medianOf('gateway', 'get') },
        s3rver: { putGBps: alt.medianOf('peer', 'put'), getGBps: alt.medianOf('peer', 'get') },
        ratio: { put: round(median(alt.ratios('put'))), get: round(median(alt.ratios('get'))) },
        cpu: { gateway: cpuOf(alt.runs.gateway), s3rver: cpuOf(alt.runs.peer) },
        verified: all.every((r) => r.verified === true),
        failures: all.flatMap((r) => r.failures ?? []),
      });
    }
  return rows;
}

export async function opsPhase(gateway, s3rver, plan) {
  const { size, concurrency, n, rounds, warmup } = plan.ops;
  log(
    `${sizeName(size)} PUT ops/s: ${concurrency} in parallel × ${n} (after ${warmup} untimed), ${rounds} rounds`,
  );
  const base = [
    '-put-only',
    '-size',
    sizeName(size),
    '-n',
    String(n),
    '--concurrency',
    String(concurrency),
    '-warmup',
    String(warmup),
  ];
  const opsOf = (r) => (r.put.gbps * 1e9) / size;
  const std = await alternate(gateway, s3rver, ['-std-s3', ...base], rounds, (r) => opsOf(r));
  const rdmaRuns = [];
  for (let i = 0; i < rounds; i++)
    rdmaRuns.push(await cuobjtest(gateway, [...base, '-key', `ops-rdma-${i}`]));
  const all = [...std.runs.gateway, ...std.runs.peer, ...rdmaRuns];
  return {
    sizeBytes: size,
    concurrency,
    putsPerRound: n * concurrency,
    warmupPutsPerRound: warmup * concurrency,
    rounds,
    gatewayStdS3OpsPerSec: round(median(std.runs.gateway.map(opsOf)), 1),
    gatewayRdmaOpsPerSec: round(median(rdmaRuns.map(opsOf)), 1),
    s3rverOpsPerSec: round(median(std.runs.peer.map(opsOf)), 1),
    ratioStdS3VsS3rver: round(median(std.ratios('put'))),
    cpu: {
      gatewayStdS3: cpuFigures(std.runs.gateway, 'put', CPUS),
      gatewayRdma: cpuFigures(rdmaRuns, 'put', CPUS),
      s3rver: cpuFigures(std.runs.peer, 'put', CPUS),
    },
    verified: all.every((r) => r.verified === true),
    failures: all.flatMap((r) => r.failures ?? []),
  };
}

/**
 * Seeds `concurrency` objects of one size straight into the posix tree (one file of random bytes
 * and hard links to it: plain files are objects there), resets the gateway's peak RSS, then GETs
 * them all at once by RDMA with cuobjtest -get-only (which verifies them against plain-HTTP reads).
 */
export async function rssPhase(gateway, plan) {
  const { size, concurrency } = plan.rss;
  const args = ['-size', sizeName(size), '-n', '1', '--concurrency', String(concurrency), '-key', 'rss'];
  log(`peak RSS: ${concurrency} concurrent ${sizeName(size)} RDMA GETs`);
  const put = await cuobjtest(gateway, ['-put-only', '-size', '4KiB', '-n', '1', '-key', 'rss-seed']);
  await seedObjects(join(gateway.root, 'cuobjtest'), 'rss', size, concurrency);
  const before = await gateway.rssBytes();
  await gateway.resetPeakRss();
  const get = await cuobjtest(gateway, ['-get-only', ...args]);
  const peak = await gateway.peakRssBytes();
  const poolBytes = plan.pool.count * plan.pool.size;
  return {
    sizeBytes: size,
    concurrency,
    transport: get.transport,
    getGBps: round(get.get?.gbps),
    rssBeforeBytes: before,
    peakRssBytes: peak,
    poolBytes,
    peakOverPoolBytes: peak - poolBytes,
    note: 'objects seeded as files in the posix tree; VmHWM reset (clear_refs 5) just before cuobjtest -get-only, whose window also holds its untimed plain-HTTP reference reads of each object before the timed RDMA GETs',
    verified: put.verified === true && get.verified === true,
    failures: [...(put.failures ?? []), ...(get.failures ?? [])],
  };
}

async function seedObjects(bucketDir, key, size, count) {
  const first = join(bucketDir, `${key}-0`);
  const f = await open(first, 'w');
  const chunk = Buffer.allocUnsafe(Math.min(size, 64 << 20));
  for (let at = 0; at < size; at += chunk.length) {
    const n = Math.min(chunk.length, size - at);
    await f.write(randomFillSync(chunk, 0, n), 0, n, at);
  }
  await f.close();
  for (let i = 1; i < count; i++) await link(first, join(bucketDir, `${key}-${i}`));
}
