// The listing scenario's light client (issue 22 item 6, applied to item 5): the same full
// ListObjectsV2 walk in pages of 1000 as lib/listing.mjs's SDK client, over node:http with a
// keep-alive agent and SigV4 header signing, taking from each page only its continuation token
// inside the timed window. The SDK spends ~23 ms of client CPU parsing and shaping a 1000-key page
// on the 2-core VM — about what either server spends producing it — so its times mostly measure
// itself. Every page is still checked (keys in order, size, ETag, a LastModified), after the clock.

import { createHash } from 'node:crypto';
import { Agent, request } from 'node:http';
import { createRequire } from 'node:module';
import { Sha256 } from './load/sigv4-hash.mjs';

const requireKit = createRequire(new URL('../../packages/test-kit/package.json', import.meta.url));
const { SignatureV4 } = await import(requireKit.resolve('@smithy/signature-v4'));

const ENTITIES = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const unescapeXml = (s) => s.replace(/&(amp|lt|gt|quot|apos);/g, (_, e) => ENTITIES[e]);
const TOKEN = /<NextContinuationToken>([^<]*)<\/NextContinuationToken>/;
const CONTENTS = /<Contents>([\s\S]*?)<\/Contents>/g;
const field = (block, name) => new RegExp(`<${name}>([^<]*)</${name}>`).exec(block)?.[1];

/** A lister for one server: `list(bucket, token)` → the page's XML text, timed by the caller. */
export function lightClient(server) {
  const url = new URL(server.endpoint);
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const signer = new SignatureV4({
    credentials: { accessKeyId: server.access, secretAccessKey: server.secret },
    region: server.region ?? 'us-east-1',
    service: 's3',
    sha256: Sha256,
    uriEscapePath: false,
  });
  const list = async (bucket, token, maxKeys) => {
    const query = { 'list-type': '2', 'max-keys': String(maxKeys) };
    if (token !== undefined) query['continuation-token'] = token;
    const signed = await signer.sign({
      method: 'GET',
      protocol: 'http:',
      hostname: url.hostname,
      port: Number(url.port),
      path: `/${bucket}`,
      query,
      headers: { host: url.host, 'x-amz-content-sha256': createHash('sha256').update('').digest('hex') },
    });
    return new Promise((resolve, reject) => {
      const req = request(
        {
          agent,
          host: url.hostname,
          port: url.port,
          method: 'GET',
          path: `/${bucket}?${new URLSearchParams(query).toString()}`,
          headers: signed.headers,
        },
        (res) => {
          const chunks = [];
          res.on('data', (c) => chunks.push(c));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            if (res.statusCode === 200) resolve(text);
            else reject(new Error(`ListObjectsV2: HTTP ${res.statusCode} ${text.slice(0, 200)}`));
          });
          res.on('error', reject);
        },
      );
      req.setTimeout(120_000, () => req.destroy(new Error('ListObjectsV2: no byte for 120 s')));
      req.on('error', reject);
      req.end();
    });
  };
  return { list, destroy: () => agent.destroy() };
}

/**
 * The whole bucket through `client` (lightClient): per-page and total ms, and what was wrong.
 * `expectedKey(i)` / `expectedEtag(i)` describe the i-th key in listing order.
 */
export async function lightFullListing(client, bucket, n, pageSize, expected) {
  const pages = [];
  const bodies = [];
  let token;
  const t0 = performance.now();
  do {
    const p0 = performance.now();
    const xml = await client.list(bucket, token, pageSize);
    pages.push(performance.now() - p0);
    bodies.push(xml);
    const m = TOKEN.exec(xml);
    token = m ? unescapeXml(m[1]) : undefined;
  } while (token);
  const totalMs = performance.now() - t0;
  const failures = [];
  let seen = 0;
  for (const xml of bodies) {
    for (const [, block] of xml.matchAll(CONTENTS)) {
      const at = seen++;
      if (failures.length >= 5) continue;
      const key = unescapeXml(field(block, 'Key') ?? '');
      const size = Number(field(block, 'Size'));
      const etag = unescapeXml(field(block, 'ETag') ?? '');
      if (key !== expected.key(at))
        failures.push(`light #${at + 1}: key ${key}, expected ${expected.key(at)}`);
      else if (size !== 1 || etag !== expected.etag(at))
        failures.push(`light ${key}: size ${size} etag ${etag}`);
      else if (Number.isNaN(Date.parse(field(block, 'LastModified') ?? '')))
        failures.push(`light ${key}: no LastModified`);
    }
  }
  if (seen !== n) failures.push(`light: listed ${seen} keys, expected ${n}`);
  return { totalMs, pages, failures };
}
