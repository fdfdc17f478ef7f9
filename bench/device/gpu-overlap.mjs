#!/usr/bin/env node
// Staging overlapped with the transfer vs not (issue 24 item 3), through a real gateway process
// (posix backend on a temp dir, softnic on this host): one cuobjclient Session per mode —
// staging: { overlap: true } and { overlap: false } — moving the same object size, PUT then GET,
// alternating the modes pair by pair. Every round trip is verified: random bytes go onto the
// device, up, the device is zeroed, down, and what the device holds afterwards must equal them.
// --memory host runs the same with host-memory sessions (no staging, no gate: the "unchanged"
// check); there both rows are the same code and should agree within noise.
//   node bench/device/gpu-overlap.mjs [--size 1GiB] [--pairs 5] [--memory cuda|host] [--etag-part-size 8MiB] [--out DIR]
// Writes DIR/overlap-<memory>-<timestamp>.json and DIR/overlap-<memory>-latest.md; exit 0 only when
// every transfer verified. cuda needs a CUDA runtime (LD_LIBRARY_PATH or VGWRDMA_CUDA_LIB).

import { randomFillSync } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, hostname } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Session } from '../../packages/cuobjclient/dist/index.js';
// The SDK by path: bench/ has no dependencies of its own (it is cuobjtest's); esbuild bundles it too.
import {
  CreateBucketCommand,
  S3Client,
} from '../../packages/cuobjtest/node_modules/@aws-sdk/client-s3/dist-cjs/index.js';
import { startServer } from '../lib/server-process.mjs';

const { values: args } = parseArgs({
  options: {
    size: { type: 'string', default: '1GiB' },
    pairs: { type: 'string', default: '5' },
    memory: { type: 'string', default: 'cuda' },
    out: { type: 'string', default: fileURLToPath(new URL('../results', import.meta.url)) },
    label: { type: 'string', default: hostname() },
    // parts-mode ETags (--etag-mode parts with this part size) so a PUT is not bound by one MD5
    'etag-part-size': { type: 'string' },
  },
});
const MiB = 2 ** 20;
const UNITS = { KiB: 2 ** 10, MiB, GiB: 2 ** 30 };
function parseSize(flag, text) {
  const m = /^(\d+)(KiB|MiB|GiB)?$/.exec(text);
  if (!m) throw new Error(`${flag}: ${text} is not N, NKiB, NMiB or NGiB`);
  return Number(m[1]) * (m[2] ? UNITS[m[2]] : 1);
}
const SIZE = parseSize('--size', args.size);
const PAIRS = Number(args.pairs);
const MEMORY = args.memory;
if (MEMORY !== 'cuda' && MEMORY !== 'host') throw new Error('--memory must be cuda or host');
const CREDS = { access: 'overlap-access', secret: 'overlap-secret' };
const POOL = { count: 4, size: 64 * MiB }; // gateway RDMA chunk: 8 MiB (a quarter of a buffer, at most 8 MiB)
const MODES =
  MEMORY === 'cuda'
    ? [
        { name: 'overlapped', staging: { overlap: true } },
        { name: 'not overlapped', staging: { overlap: false } },
      ]
    : [
        { name: 'host session A', staging: undefined }, // the same code twice: the noise floor
        { name: 'host session B', staging: undefined },
      ];

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const h = s.length >> 1;
  return s.length % 2 ? s[h] : (s[h - 1] + s[h]) / 2;
};
const gbps = (ms) => SIZE / ms / 1e6;

const PART =
  args['etag-part-size'] === undefined ? undefined : parseSize('--etag-part-size', args['etag-part-size']);
const gateway = await startServer('gateway', {
  ...CREDS,
  channels: 16,
  pool: POOL,
  ...(PART === undefined ? {} : { etagPartSize: PART }),
});
const s3 = new S3Client({
  endpoint: gateway.endpoint,
  region: 'us-east-1',
  forcePathStyle: true,
  credentials: { accessKeyId: CREDS.access, secretAccessKey: CREDS.secret },
});
const bucket = 'overlap';
const data = new Uint8Array(SIZE);
for (let at = 0; at < SIZE; at += 64 * MiB) randomFillSync(data, at, Math.min(64 * MiB, SIZE - at));
const back = new Uint8Array(SIZE);
const started = new Date();
const rows = MODES.map((mode) => ({ ...mode, put: [], get: [], stagingMs: { put: [], get: [] } }));
let verified = true;
let device;
const sessions = [];
try {
  await s3.send(new CreateBucketCommand({ Bucket: bucket }));
  for (const mode of MODES)
    sessions.push(
      await Session.open({
        size: SIZE,
        memory: MEMORY,
        ...(MEMORY === 'cuda' ? { staging: mode.staging } : {}),
      }),
    );
  if (MEMORY === 'cuda') device = sessions[0].describeDevice();
  const load = (s, bytes) => (MEMORY === 'cuda' ? s.copyToDevice(bytes) : s.buffer.set(bytes));
  const read = (s, into) => (MEMORY === 'cuda' ? s.copyFromDevice(into) : into.set(s.buffer));
  for (let pair = -1; pair < PAIRS; pair++) {
    // pair -1: warm-up, not counted
    const order = pair % 2 ? [0, 1] : [1, 0];
    for (const i of order) {
      const s = sessions[i];
      const key = `obj-${i}`;
      load(s, data);
      let t0 = performance.now();
      const up = await s.upload(s3, bucket, key);
      const putMs = performance.now() - t0;
      back.fill(0);
      load(s, back); // zero what the download must fill
      t0 = performance.now();
      const down = await s.download(s3, bucket, key);
      const getMs = performance.now() - t0;
      read(s, back);
      const ok = up.via === 'rdma' && down.via === 'rdma' && Buffer.compare(back, data) === 0;
      verified &&= ok;
      if (!ok) console.error(`[overlap] ${rows[i].name} pair ${pair}: NOT verified`);
      if (pair < 0) continue;
      rows[i].put.push(gbps(putMs));
      rows[i].get.push(gbps(getMs));
      rows[i].stagingMs.put.push(up.stagingMs ?? 0);
      rows[i].stagingMs.get.push(down.stagingMs ?? 0);
    }
  }
} finally {
  for (const s of sessions) s.close();
  await gateway.stop();
}

const fmt = (x) => x.toFixed(2);
const summary = rows.map((r) => ({
  mode: r.name,
  staging: r.staging,
  putGBps: median(r.put),
  getGBps: median(r.get),
  putSamples: r.put,
  getSamples: r.get,
  stagingMsMedian: { put: median(r.stagingMs.put), get: median(r.stagingMs.get) },
}));
const doc = {
  timestamp: started.toISOString(),
  command: `node bench/device/gpu-overlap.mjs --size ${args.size} --pairs ${PAIRS} --memory ${MEMORY}${PART === undefined ? '' : ` --etag-part-size ${args['etag-part-size']}`}`,
  memory: MEMORY,
  device,
  machine: { label: args.label, hostname: hostname(), cpus: cpus().length, node: process.version },
  sizeBytes: SIZE,
  pairs: PAIRS,
  pool: POOL,
  rows: summary,
  ratio: { put: summary[0].putGBps / summary[1].putGBps, get: summary[0].getGBps / summary[1].getGBps },
  verified,
};
const title =
  MEMORY === 'cuda' ? `GPU staging overlapped vs not — ${device}` : 'Host-memory sessions (no staging)';
const md = [
  `# ${title}`,
  '',
  `${doc.timestamp}, ${doc.machine.label} (${doc.machine.cpus} cores), Node ${doc.machine.node}; ${args.size} per ` +
    `transfer, median of ${PAIRS} alternating pairs (after one warm-up pair), softnic on one host, decimal GB/s; ` +
    'every round trip verified on the device (host: in the buffer).',
  '',
  '| staging | RDMA PUT GB/s | RDMA GET GB/s | staging ms PUT / GET (median) | verified |',
  '|---|---|---|---|---|',
  ...summary.map(
    (r) =>
      `| ${r.mode} | ${fmt(r.putGBps)} | ${fmt(r.getGBps)} | ${fmt(r.stagingMsMedian.put)} / ${fmt(r.stagingMsMedian.get)} | ${verified ? 'yes' : 'NO'} |`,
  ),
  '',
  `${MEMORY === 'cuda' ? 'Overlapped ÷ not' : 'A ÷ B'}: PUT ${fmt(doc.ratio.put)}×, GET ${fmt(doc.ratio.get)}×. Command: \`${doc.command}\`.`,
  '',
].join('\n');
mkdirSync(args.out, { recursive: true });
const stamp = started.toISOString().replace(/[:.]/g, '-');
writeFileSync(join(args.out, `overlap-${MEMORY}-${stamp}.json`), `${JSON.stringify(doc, null, 2)}\n`);
writeFileSync(join(args.out, `overlap-${MEMORY}-latest.md`), md);
console.log(md);
process.exit(verified ? 0 : 1);
