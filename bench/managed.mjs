#!/usr/bin/env node
// Managed transfers benchmark (issue 31 item 4): cuobjclient's TransferManager (multipart RDMA
// upload, concurrent ranged RDMA GETs) against one RDMA PUT / GET of the whole object (a Session,
// where the object fits one token) and against the AWS SDK's multipart over plain HTTP (same part
// size and concurrency), in host memory and — where a CUDA device is present — GPU memory. One
// gateway (test-kit's gateway child: posix on a temp root, the RDMA plugin, softnic on this host)
// with the app's defaults for this host (one 64 MiB pool buffer per core, 4 to 16; 128 channels;
// UV_THREADPOOL_SIZE as `npm start` sets it). Each round moves the object up then down by every
// method in turn (the order rotates per round); every download is checked byte for byte against
// the data (the upload with it); the gateway's peak RSS (VmHWM, reset before each round trip) is
// recorded; ratios are medians of per-round ratios. Writes results/managed-<ts>.json and
// results/managed-latest.md.
//   npm run bench:managed -- [--sizes 256MiB,1GiB] [--memory host,cuda] [--rounds 2]
//     [--part-size 64MiB] [--concurrency N] [--pool-count N] [--max-per-agent N] [--methods managed,single,http] [--http-max 4GiB]
//     [--gateway-dir DIR] [--out DIR] [--label TEXT] [--bundled]
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, hostname, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Session, TransferManager } from '../packages/cuobjclient/dist/index.js';
import { missingBuildOutputs } from './lib/build-check.mjs';
import { openCuda } from './lib/managed/cuda.mjs';
import { httpDownload, httpUpload } from './lib/managed/http-multipart.mjs';
import { fillPattern, matchesPattern } from './lib/managed/pattern.mjs';
import { managedMarkdown } from './lib/managed/report-md.mjs';
import { sdk } from './lib/managed/sdk.mjs';
import { GiB, MiB, median, round, sizeName } from './lib/stats.mjs';

const cores = availableParallelism();
const { values: args } = parseArgs({
  options: {
    sizes: { type: 'string', default: '256MiB,1GiB' },
    memory: { type: 'string', default: 'host' },
    rounds: { type: 'string', default: '2' },
    'part-size': { type: 'string', default: '64MiB' },
    concurrency: { type: 'string', default: String(Math.min(16, Math.max(4, cores))) },
    methods: { type: 'string', default: 'managed,single,http' },
    'http-max': { type: 'string', default: '4GiB' },
    'gateway-dir': { type: 'string', default: tmpdir() },
    out: { type: 'string', default: fileURLToPath(new URL('./results', import.meta.url)) },
    label: { type: 'string', default: hostname() },
    bundled: { type: 'boolean', default: false },
    /** Largest host object held in one Uint8Array (default: Node's limit); above it, part reader/writer. */
    'host-array-max': { type: 'string' },
    /** The gateway's pool: buffers (default one per core, 4 to 16) of 64 MiB. */
    'pool-count': { type: 'string' },
    /** The gateway's cap on one client agent's concurrent transfers (default: its own). */
    'max-per-agent': { type: 'string' },
  },
});
const UNITS = { KiB: 2 ** 10, MiB, GiB };
function parseSize(flag, text) {
  const m = /^(\d+)(KiB|MiB|GiB)?$/.exec(text.trim());
  if (!m) throw new Error(`${flag}: ${text} is not N, NKiB, NMiB or NGiB`);
  return Number(m[1]) * (m[2] ? UNITS[m[2]] : 1);
}
const SIZES = args.sizes.split(',').map((s) => parseSize('--sizes', s));
const MEMORIES = args.memory.split(',');
const METHODS = args.methods.split(',');
const ROUNDS = Number(args.rounds);
const PART_SIZE = parseSize('--part-size', args['part-size']);
const CONCURRENCY = Number(args.concurrency);
const HTTP_MAX = parseSize('--http-max', args['http-max']);
/** One RDMA request's window (TOKEN_CAPACITY): the single PUT/GET moves at most this. */
const SINGLE_MAX = 4 * GiB - 64 * 1024;
/** Largest Uint8Array here; a larger host object goes through a part reader / writer. */
const HOST_ARRAY_MAX =
  args['host-array-max'] === undefined
    ? (await import('node:buffer')).constants.MAX_LENGTH
    : parseSize('--host-array-max', args['host-array-max']);
const log = (...m) => console.error('[bench:managed]', ...m);

if (!args.bundled) {
  const missing = missingBuildOutputs();
  if (missing.length > 0) {
    log(`not built: ${missing.join(', ')}; run \`npm run build\` first`);
    process.exit(1);
  }
}
// The gateway child inherits this: libuv's pool (MD5s, file writes, copy_file_range) sized as
// `npm start` sizes it; it must be in the environment before node starts.
process.env.UV_THREADPOOL_SIZE ??= String(Math.min(16, Math.max(4, cores)));
const { startServer } = await import('./lib/server-process.mjs');

/** The gateway's per-agent cap when given; undefined leaves the gateway's own default. */
const MAX_PER_AGENT = args['max-per-agent'] === undefined ? undefined : Number(args['max-per-agent']);
const POOL = { count: Number(args['pool-count'] ?? Math.min(16, Math.max(4, cores))), size: 64 * MiB };
const CREDS = { access: 'managed-access', secret: 'managed-secret' };
const BUCKET = 'managed';
const gbps = (bytes, ms) => bytes / ms / 1e6;
const fsType = (dir) => {
  try {
    return execFileSync('stat', ['-f', '-c', '%T', dir]).toString().trim();
  } catch {
    return 'unknown';
  }
};

const gateway = await startServer('gateway', {
  ...CREDS,
  channels: 128,
  pool: POOL,
  ...(MAX_PER_AGENT === undefined ? {} : { maxPerAgent: MAX_PER_AGENT }),
  rootParent: args['gateway-dir'],
});
const s3 = new sdk.S3Client({
  endpoint: gateway.endpoint,
  region: 'us-east-1',
  forcePathStyle: true,
  credentials: { accessKeyId: CREDS.access, secretAccessKey: CREDS.secret },
  requestChecksumCalculation: 'WHEN_REQUIRED',
  responseChecksumValidation: 'WHEN_REQUIRED',
});
// CompleteMultipartUpload's round trip, timed apart (the gateway assembles the object in it).
let completeMs = 0;
s3.middlewareStack.add(
  (next, context) => async (a) => {
    const t0 = performance.now();
    try {
      return await next(a);
    } finally {
      if (context.commandName === 'CompleteMultipartUploadCommand') completeMs += performance.now() - t0;
    }
  },
  { step: 'initialize', name: 'benchCompleteTimer' },
);
const manager = new TransferManager({ client: s3, partSize: PART_SIZE, concurrency: CONCURRENCY });

/** Where an object's bytes live for one (memory, size): how to fill, hand over, and check them. */
function endpoints(memory, size, cuda) {
  if (memory === 'cuda') {
    const src = cuda.alloc(size);
    const dst = cuda.alloc(size);
    const chunk = Buffer.allocUnsafeSlow(Math.min(size, 256 * MiB));
    for (let at = 0; at < size; at += chunk.length) {
      const part = chunk.subarray(0, Math.min(chunk.length, size - at));
      fillPattern(part, at);
      cuda.toDevice(src, at, part);
    }
    return {
      kind: 'device pointer',
      source: { memory: 'cuda', devicePtr: src, size },
      destination: { memory: 'cuda', devicePtr: dst, size },
      srcPtr: src,
      dstPtr: dst,
      reset: () => cuda.zero(dst, size),
      verify: () => {
        for (let at = 0; at < size; at += chunk.length) {
          const part = chunk.subarray(0, Math.min(chunk.length, size - at));
          cuda.toHost(dst, at, part);
          if (!matchesPattern(part, at)) return false;
        }
        return true;
      },
      close: () => {
        cuda.free(src);
        cuda.free(dst);
      },
    };
  }
  if (size <= HOST_ARRAY_MAX) {
    const src = new Uint8Array(size);
    fillPattern(src, 0);
    const dst = new Uint8Array(size);
    return {
      kind: 'Uint8Array',
      source: src,
      destination: dst,
      part: (offset, length) => src.subarray(offset, offset + length),
      got: (offset, bytes) => dst.set(bytes, offset),
      reset: () => dst.fill(0),
      verify: () => matchesPattern(dst, 0),
      close: () => {},
    };
  }
  // Larger than one array: parts made and checked as they pass (inside the timed window).
  let bad = 0;
  let seen = 0;
  const check = (offset, bytes) => {
    seen += bytes.length;
    if (!matchesPattern(bytes, offset)) bad++;
  };
  return {
    kind: 'part reader/writer (pattern made and checked inside the timed window)',
    source: { size, read: (offset, into) => fillPattern(into, offset) },
    destination: { capacity: size, write: check },
    part: (offset, length) => {
      const b = Buffer.allocUnsafe(length);
      fillPattern(b, offset);
      return b;
    },
    got: check,
    reset: () => {
      bad = 0;
      seen = 0;
    },
    verify: () => bad === 0 && seen === size,
    close: () => {},
  };
}

/** With VGWRDMA_BENCH_MARKS=1: a line with the wall-clock time (ms), to line samples of the host's threads up with. */
function mark(what) {
  if (process.env.VGWRDMA_BENCH_MARKS === '1') console.log(`[mark] ${Date.now()} ${what}`);
}

/** One round trip by `method`: { upMs, downMs, verified, detail } or { skipped }. */
async function roundTrip(method, memory, size, ep) {
  const key = `${method}-${memory}-${sizeName(size)}`;
  if (method === 'managed') {
    completeMs = 0;
    mark(`up-start ${key}`);
    let t0 = performance.now();
    const up = await manager.upload({ bucket: BUCKET, key, source: ep.source });
    const upMs = performance.now() - t0;
    mark(`up-end ${key}`);
    const upCompleteMs = completeMs;
    ep.reset();
    t0 = performance.now();
    const down = await manager.download({ bucket: BUCKET, key, destination: ep.destination });
    const downMs = performance.now() - t0;
    const verified = down.bytes === size && ep.verify();
    const detail = {
      etag: up.etag,
      parts: up.parts,
      retries: up.retries + down.retries,
      httpParts: up.httpParts + down.httpParts,
      maxInFlight: Math.max(up.maxInFlight, down.maxInFlight),
      completeMs: Math.round(upCompleteMs),
    };
    return { upMs, downMs, verified: verified && up.httpParts + down.httpParts === 0, detail };
  }
  if (method === 'single') {
    if (size > SINGLE_MAX) return { skipped: `over one RDMA request's window (${SINGLE_MAX} bytes)` };
    const up = await Session.open({
      size,
      maxSize: size,
      memory,
      ...(memory === 'cuda' ? { devicePtr: ep.srcPtr } : {}),
    });
    const down =
      memory === 'cuda' ? await Session.open({ size, maxSize: size, memory, devicePtr: ep.dstPtr }) : up;
    try {
      if (memory !== 'cuda') {
        if (ep.source instanceof Uint8Array) up.buffer.set(ep.source);
        else fillPattern(up.buffer, 0);
      }
      let t0 = performance.now();
      const u = await up.upload(s3, BUCKET, key);
      const upMs = performance.now() - t0;
      if (memory === 'cuda') ep.reset();
      else up.buffer.fill(0);
      t0 = performance.now();
      const d = await down.download(s3, BUCKET, key);
      const downMs = performance.now() - t0;
      const verified =
        u.via === 'rdma' &&
        d.via === 'rdma' &&
        (memory === 'cuda' ? ep.verify() : matchesPattern(up.buffer, 0));
      return { upMs, downMs, verified, detail: { etag: u.etag, parts: 1 } };
    } finally {
      up.close();
      if (down !== up) down.close();
    }
  }
  if (method === 'http') {
    if (memory === 'cuda') return { skipped: 'the AWS SDK reads and writes host memory only' };
    if (size > HTTP_MAX) return { skipped: `above --http-max ${sizeName(HTTP_MAX)} (device time)` };
    const spec = { bucket: BUCKET, key, size, partSize: PART_SIZE, concurrency: CONCURRENCY };
    completeMs = 0;
    let t0 = performance.now();
    const etag = await httpUpload(s3, { ...spec, part: ep.part });
    const upMs = performance.now() - t0;
    const upCompleteMs = completeMs;
    ep.reset();
    t0 = performance.now();
    const n = await httpDownload(s3, { ...spec, got: ep.got });
    const downMs = performance.now() - t0;
    return {
      upMs,
      downMs,
      verified: n === size && ep.verify(),
      detail: { etag, parts: Math.ceil(size / PART_SIZE), completeMs: Math.round(upCompleteMs) },
    };
  }
  throw new Error(`unknown method ${method}`);
}

const started = new Date();
const load0 = loadavg();
const rows = [];
let verified = true;
let cuda;
try {
  await s3.send(new sdk.CreateBucketCommand({ Bucket: BUCKET }));
  for (const memory of MEMORIES) {
    if (memory === 'cuda') {
      try {
        cuda = openCuda();
      } catch (err) {
        log(`GPU memory skipped: ${err.message}`);
        rows.push({ memory, skipped: err.message });
        continue;
      }
    }
    // Warm-up, untimed: the manager's session pool opens, the gateway's JIT warms.
    {
      const ep = endpoints(memory, Math.min(SIZES[0], 256 * MiB), cuda);
      const w = await roundTrip('managed', memory, Math.min(SIZES[0], 256 * MiB), ep);
      verified &&= w.verified;
      ep.close();
    }
    for (const size of SIZES) {
      const ep = endpoints(memory, size, cuda);
      const byMethod = Object.fromEntries(METHODS.map((m) => [m, { runs: [], peakRss: 0 }]));
      for (let r = 0; r < ROUNDS; r++) {
        const order = METHODS.map((_, i) => METHODS[(i + r) % METHODS.length]);
        for (const method of order) {
          await gateway.resetPeakRss();
          const res = await roundTrip(method, memory, size, ep);
          const entry = byMethod[method];
          if (res.skipped) {
            entry.skipped = res.skipped;
            continue;
          }
          entry.peakRss = Math.max(entry.peakRss, (await gateway.peakRssBytes()) ?? 0);
          entry.runs.push(res);
          verified &&= res.verified;
          if (!res.verified) log(`${method} ${memory} ${sizeName(size)} round ${r}: NOT verified`);
          log(
            `${memory} ${sizeName(size)} ${method}: up ${gbps(size, res.upMs).toFixed(2)} GB/s (Complete ${res.detail.completeMs ?? '-'} ms), down ${gbps(size, res.downMs).toFixed(2)} GB/s${res.verified ? '' : ' NOT VERIFIED'}`,
          );
          await s3.send(
            new sdk.DeleteObjectCommand({ Bucket: BUCKET, Key: `${method}-${memory}-${sizeName(size)}` }),
          );
        }
      }
      ep.close();
      const summary = {};
      for (const [m, e] of Object.entries(byMethod)) {
        if (e.runs.length === 0) {
          summary[m] = { skipped: e.skipped ?? 'not run' };
          continue;
        }
        summary[m] = {
          upGBps: round(median(e.runs.map((x) => gbps(size, x.upMs))), 2),
          downGBps: round(median(e.runs.map((x) => gbps(size, x.downMs))), 2),
          upRuns: e.runs.map((x) => round(gbps(size, x.upMs), 2)),
          completeMsRuns: e.runs.map((x) => x.detail.completeMs ?? null),
          downRuns: e.runs.map((x) => round(gbps(size, x.downMs), 2)),
          gatewayPeakRssMiB: Math.round(e.peakRss / MiB),
          verified: e.runs.every((x) => x.verified),
          ...e.runs[e.runs.length - 1].detail,
        };
      }
      const ratio = (a, b, dir) => {
        const xs = [];
        for (let i = 0; i < Math.min(byMethod[a]?.runs.length ?? 0, byMethod[b]?.runs.length ?? 0); i++) {
          const key = dir === 'up' ? 'upMs' : 'downMs';
          xs.push(byMethod[b].runs[i][key] / byMethod[a].runs[i][key]);
        }
        return round(median(xs), 2);
      };
      const ratios = {
        managedOverSingle: { up: ratio('managed', 'single', 'up'), down: ratio('managed', 'single', 'down') },
        managedOverHttp: { up: ratio('managed', 'http', 'up'), down: ratio('managed', 'http', 'down') },
        managedUpOverDown: round(median((byMethod.managed?.runs ?? []).map((x) => x.downMs / x.upMs)), 2),
      };
      rows.push({ memory, size, sizeName: sizeName(size), data: ep.kind, methods: summary, ratios });
    }
    if (memory === 'cuda') cuda = undefined;
  }
} finally {
  await manager.close().catch(() => {});
  await gateway.stop();
}

const doc = {
  kind: 'managed',
  label: args.label,
  started: started.toISOString(),
  finished: new Date().toISOString(),
  command: `node bench/managed.mjs ${process.argv.slice(2).join(' ')}`.trim(),
  host: {
    cpus: cpus().length,
    model: cpus()[0]?.model,
    node: process.version,
    loadavgStart: load0,
    loadavgEnd: loadavg(),
  },
  transport:
    'softnic between two processes on one host (process_vm_readv/writev), not RDMA hardware; HTTP/1.1 on loopback',
  gateway: {
    child: 'test-kit gateway-child (posix + cu-backend RDMA plugin)',
    pool: POOL,
    poolBytes: POOL.count * POOL.size,
    maxPerAgent: MAX_PER_AGENT ?? 'the gateway default (half the pool)',
    channels: 128,
    uvThreadpoolSize: Number(process.env.UV_THREADPOOL_SIZE),
    root: args['gateway-dir'],
    rootFs: fsType(args['gateway-dir']),
  },
  client: { partSize: PART_SIZE, concurrency: CONCURRENCY },
  rows,
  verified,
};
mkdirSync(args.out, { recursive: true });
const stamp = started.toISOString().replace(/[:.]/g, '-');
writeFileSync(join(args.out, `managed-${stamp}.json`), `${JSON.stringify(doc, null, 2)}\n`);
const md = managedMarkdown(doc);
writeFileSync(join(args.out, 'managed-latest.md'), md);
console.log(md);
if (!verified) process.exitCode = 1;
