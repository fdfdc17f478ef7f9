// What each harness mode measures: the RDMA-vs-std-s3 sizes and iterations, the peer sizes, the
// 4 KiB PUT ops/s run, the peak-RSS test and the ceiling buffer; `warmup` = cuobjtest's untimed
// iterations before the timed ones (each cuobjtest run is a fresh, JIT-cold client process).
// `plain` = the plain-path comparison against peers (`--peer`, lib/plain-run.mjs): scenarios of
// one size, requests in flight and operations per round; `keys` = objects per load process,
// `warmup` = untimed operations per process; `serverWarmup` = untimed 4 KiB PUTs and as many GETs
// each server gets before its first timed round (the gateway starts JIT-cold: measured on the VM,
// its first 3000 PUTs cost 2.0 ms of CPU each, the next rounds 1.3–1.5). One table, no branches elsewhere.

import { cpus } from 'node:os';
import { GiB, MiB } from './stats.mjs';

/** Load-generator processes: enough that the client's event loop is not the bound. */
const PROCESSES = Math.max(2, Math.min(4, cpus().length));

const plain = (ops, rounds, large = 256 * MiB) => ({
  rounds,
  serverWarmup: ops.serverWarmup ?? 0,
  processes: PROCESSES,
  clients: ['light', 'sdk'],
  bucket: 'i22perf-bench',
  scenarios: [
    { size: 4096, concurrency: 16, ops: ops.small },
    { size: MiB, concurrency: 8, ops: ops.mid },
    { size: large, concurrency: 1, ops: ops.large, keys: 1, warmup: 1 },
  ],
});

export const PLANS = {
  full: {
    warmup: 1,
    compare: [
      { sizes: [1 * MiB, 16 * MiB, 256 * MiB], n: 3 },
      { sizes: [1 * GiB], n: 2 },
    ],
    peers: [
      { sizes: [1 * MiB, 16 * MiB, 64 * MiB, 256 * MiB], n: 3 },
      { sizes: [1 * GiB], n: 1 },
    ],
    ops: { size: 4096, concurrency: 8, n: 50, rounds: 3, warmup: 10 },
    rss: { size: 1 * GiB, concurrency: 16 },
    plain: plain({ small: 1600, mid: 240, large: 3, serverWarmup: 4000 }, 3),
    ceiling: { bytes: 256 * MiB, rounds: 3, opensslSeconds: 2 },
    pool: { count: 16, size: 16 * MiB },
  },
  quick: {
    warmup: 1,
    compare: [{ sizes: [1 * MiB, 16 * MiB, 256 * MiB], n: 3 }],
    peers: [{ sizes: [1 * MiB, 16 * MiB, 64 * MiB], n: 2 }],
    ops: { size: 4096, concurrency: 8, n: 15, rounds: 2, warmup: 10 },
    rss: { size: 32 * MiB, concurrency: 16 },
    plain: plain({ small: 800, mid: 120, large: 2, serverWarmup: 2000 }, 2),
    ceiling: { bytes: 256 * MiB, rounds: 2, opensslSeconds: 1 },
    pool: { count: 16, size: 16 * MiB },
  },
  // for the harness's own test: every phase runs, on small data
  tiny: {
    warmup: 1,
    compare: [{ sizes: [1 * MiB], n: 2 }],
    peers: [{ sizes: [1 * MiB], n: 2 }],
    ops: { size: 4096, concurrency: 2, n: 5, rounds: 1, warmup: 1 },
    rss: { size: 4 * MiB, concurrency: 4 },
    plain: plain({ small: 32, mid: 8, large: 1, serverWarmup: 32 }, 1, 16 * MiB),
    ceiling: { bytes: 16 * MiB, rounds: 1, opensslSeconds: 1 },
    pool: { count: 4, size: 4 * MiB },
  },
};
