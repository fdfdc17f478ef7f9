#!/usr/bin/env node
// GPU-memory round trips through a real gateway (issue 10): the gateway (posix backend on a temp
// dir, RDMA by softnic on this host) in its own process, driven by cuobjtest --memory cuda
// --compare (GPU-memory RDMA vs plain HTTP bodies, alternately; data filled on the device and
// every GET CRC-checked on the device), cuobjtest with host memory as the baseline, and the
// device <-> pinned-host staging copies alone, for several chunk/stream splits.
//   node bench/device/gpu-roundtrip.mjs [--sizes 256MiB,1GiB] [-n 3] [--out DIR] [--bundled]
// Writes DIR/gpu-<timestamp>.json and DIR/gpu-latest.md; exit 0 only when every transfer verified.
// Needs a CUDA runtime (LD_LIBRARY_PATH or VGWRDMA_CUDA_LIB) and a device; on the GPU machine it
// runs from the bundle (bench/device/bundle.mjs, run-gpu.sh).

import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, hostname } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { GpuClient } from '../../packages/rdma-ffi/dist/index.js';
import { cuobjtest, useCuobjtestBin } from '../lib/cuobjtest.mjs';
import { startServer } from '../lib/server-process.mjs';

const { values: args } = parseArgs({
  options: {
    sizes: { type: 'string', default: '256MiB,1GiB' },
    n: { type: 'string', default: '3' },
    out: { type: 'string', default: fileURLToPath(new URL('../results', import.meta.url)) },
    bundled: { type: 'boolean', default: false },
    label: { type: 'string', default: `${hostname()}` },
  },
});
if (args.bundled) useCuobjtestBin(fileURLToPath(new URL('./cuobjtest.mjs', import.meta.url)));

const MiB = 2 ** 20;
const CREDS = { access: 'gpu-access', secret: 'gpu-secret' };
const POOL = { count: 4, size: 64 * MiB };
/** Staging splits measured on their own: { chunk bytes (0 = even split), streams }. */
const SPLITS = [
  { chunkBytes: 0, streams: 1 },
  { chunkBytes: 0, streams: 2 },
  { chunkBytes: 0, streams: 4 },
  { chunkBytes: 8 * MiB, streams: 2 },
  { chunkBytes: 8 * MiB, streams: 4 },
  { chunkBytes: 64 * MiB, streams: 2 },
];
const STAGE_REPS = 5;
const PAIRS = 5;

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const gbps = (bytes, ms) => bytes / ms / 1e6;

/**
 * GPU memory against host memory, as the performance targets (bench/README.md) asks for ratios: single-iteration cuobjtest
 * runs, GPU then host, PAIRS times; the median of the per-pair GB/s ratios, per direction.
 */
async function gpuVsHostPairs(gateway, size) {
  const ratios = { put: [], get: [] };
  let verified = true;
  const one = ['-n', '1', '-bucket', 'gpu', '-size', size];
  for (let i = 0; i < PAIRS; i++) {
    const gpu = await cuobjtest(gateway, [...one, '-memory', 'cuda', '-key', `pair-gpu-${size}`]);
    const host = await cuobjtest(gateway, [...one, '-key', `pair-host-${size}`]);
    verified &&= gpu.verified === true && host.verified === true;
    for (const d of ['put', 'get']) ratios[d].push(gpu[d].gbps / host[d].gbps);
  }
  return {
    size,
    put: { median: median(ratios.put), pairs: ratios.put },
    get: { median: median(ratios.get), pairs: ratios.get },
    verified,
  };
}

/** GB/s of stageToHost and stageToDevice alone (median of STAGE_REPS) for each split, on `size` bytes. */
async function stagingSweep(size) {
  const rows = [];
  for (const split of SPLITS) {
    const client = new GpuClient(); // plain JS: no `using` on Node 20
    try {
      client.setStaging(split);
      const dev = client.allocate(size, 'cuda-device');
      const times = { toHost: [], toDevice: [] };
      await dev.stageToHost(); // warm-up: first touch of the twin, stream start-up
      await dev.stageToDevice();
      for (let i = 0; i < STAGE_REPS; i++) {
        let t0 = performance.now();
        await dev.stageToHost();
        times.toHost.push(performance.now() - t0);
        t0 = performance.now();
        await dev.stageToDevice();
        times.toDevice.push(performance.now() - t0);
      }
      rows.push({
        ...split,
        pinned: dev.pinned,
        toHostGBps: gbps(size, median(times.toHost)),
        toDeviceGBps: gbps(size, median(times.toDevice)),
      });
    } finally {
      client.close(); // frees the device memory and the twin
    }
  }
  return rows;
}

const fmt = (x) => (x === undefined ? '—' : x.toFixed(2));

function markdown(doc) {
  const lines = [
    `# GPU-memory round trips — ${doc.device}`,
    '',
    `${doc.timestamp}, ${doc.machine.label} (${doc.machine.cpus} cores), Node ${doc.machine.node}. ` +
      'Transport: softnic on one host (process_vm_readv/writev between the client and gateway processes), ' +
      'not RDMA hardware; GPU memory staged through pinned host memory. Decimal GB/s, aggregate over ' +
      `${doc.iterations} iterations; every GET verified by CRC32 read back from the device.`,
    '',
    '| size | GPU RDMA PUT | GPU RDMA GET | staging ms PUT / GET (avg) | host RDMA PUT | host RDMA GET | std-s3 PUT | std-s3 GET | GPU RDMA / std-s3 GET (median of pairs) | verified |',
    '|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const r of doc.rows) {
    lines.push(
      `| ${r.size} | ${fmt(r.gpu.put?.gbps)} | ${fmt(r.gpu.get?.gbps)} | ${fmt(r.gpu.put?.stagingMs?.avg)} / ${fmt(r.gpu.get?.stagingMs?.avg)} | ` +
        `${fmt(r.host.put?.gbps)} | ${fmt(r.host.get?.gbps)} | ${fmt(r.std.put?.gbps)} | ${fmt(r.std.get?.gbps)} | ` +
        `${fmt(r.gpu.vsStdS3?.get?.median)}× | ${r.verified ? 'yes' : 'NO'} |`,
    );
  }
  lines.push(
    '',
    `GPU memory ÷ host memory, RDMA through the same gateway (single-iteration runs alternating GPU, host; median of ${PAIRS} pairs):`,
    '',
    '| size | PUT | GET | GET pairs | verified |',
    '|---|---|---|---|---|',
  );
  for (const p of doc.gpuVsHost)
    lines.push(
      `| ${p.size} | ${fmt(p.put.median)}× | ${fmt(p.get.median)}× | ${p.get.pairs.map(fmt).join(' ')} | ${p.verified ? 'yes' : 'NO'} |`,
    );
  lines.push('', `Staging copies alone (${doc.stagingSize}, median of ${STAGE_REPS}):`, '');
  lines.push('| chunk | streams | pinned | device→host GB/s | host→device GB/s |', '|---|---|---|---|---|');
  for (const s of doc.staging)
    lines.push(
      `| ${s.chunkBytes ? `${s.chunkBytes / MiB} MiB` : 'even split'} | ${s.streams} | ${s.pinned} | ${fmt(s.toHostGBps)} | ${fmt(s.toDeviceGBps)} |`,
    );
  lines.push(
    '',
    `Gateway peak RSS: ${(doc.gatewayPeakRssBytes / MiB).toFixed(0)} MiB (pool ${POOL.count} × ${POOL.size / MiB} MiB).`,
  );
  return `${lines.join('\n')}\n`;
}

const started = new Date();
const gateway = { ...(await startServer('gateway', { ...CREDS, channels: 16, pool: POOL })), ...CREDS };
let doc;
try {
  const sizes = args.sizes.split(',');
  const common = ['-n', args.n, '-bucket', 'gpu'];
  const rows = [];
  for (const size of sizes) {
    const [gpu, std] = await cuobjtest(gateway, [
      ...common,
      '-size',
      size,
      '-memory',
      'cuda',
      '-compare',
      '-key',
      `gpu-${size}`,
    ]);
    const host = await cuobjtest(gateway, [...common, '-size', size, '-key', `host-${size}`]);
    rows.push({ size, gpu, std, host, verified: [gpu, std, host].every((r) => r?.verified === true) });
  }
  const pairs = [];
  for (const size of sizes) pairs.push(await gpuVsHostPairs(gateway, size));
  const stagingSize = sizes.at(-1);
  const bytes = rows.at(-1).gpu.sizeBytes;
  const staging = await stagingSweep(bytes);
  doc = {
    timestamp: started.toISOString(),
    command:
      'sh .carry/benchdev/run-gpu.sh (bench/device/bundle.mjs), or node bench/device/gpu-roundtrip.mjs',
    device: rows[0].gpu.device,
    machine: {
      label: args.label,
      hostname: hostname(),
      cpus: cpus().length,
      cpuModel: cpus()[0]?.model,
      node: process.version,
    },
    iterations: Number(args.n),
    pool: POOL,
    rows,
    gpuVsHost: pairs,
    stagingSize,
    staging,
    gatewayPeakRssBytes: await gateway.peakRssBytes(),
    verified: rows.every((r) => r.verified) && pairs.every((p) => p.verified),
  };
} finally {
  await gateway.stop();
}
mkdirSync(args.out, { recursive: true });
const stamp = started.toISOString().replace(/[:.]/g, '-');
writeFileSync(join(args.out, `gpu-${stamp}.json`), `${JSON.stringify(doc, null, 2)}\n`);
writeFileSync(join(args.out, 'gpu-latest.md'), markdown(doc));
console.log(markdown(doc));
process.exit(doc.verified ? 0 : 1);
