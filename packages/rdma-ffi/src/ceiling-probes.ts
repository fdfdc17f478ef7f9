// The copy ceilings the softnic transport is measured against (the performance targets (bench/README.md)), probed in C by
// the shim: single-thread memcpy and process_vm_writev/readv into/from a forked child. They
// block the calling thread for the whole measurement — benchmarks only, never in a server.

import { RdmaError } from './errors.js';
import { loadShimLibrary } from './native/shim-library.js';

export type CeilingProbe = 'memcpy' | 'processVmWritev' | 'processVmReadv';

const PROBE_FN = {
  memcpy: 'vgw_shim_bench_memcpy_gbps',
  processVmWritev: 'vgw_shim_bench_process_vm_writev_gbps',
  processVmReadv: 'vgw_shim_bench_process_vm_readv_gbps',
} as const;

/** Median GB/s (1e9 bytes/s) of `iterations` moves of `bytes` (after one warm-up). Blocks. */
export function measureCeiling(
  probe: CeilingProbe,
  bytes: number,
  iterations = 5,
  options: { shimDir?: string } = {},
): number {
  const lib = loadShimLibrary(options);
  const gbps = lib.fn[PROBE_FN[probe]](bytes, iterations);
  if (!(gbps > 0))
    throw new RdmaError(`measureCeiling(${probe})`, Math.trunc(gbps) || -5, lib.lastError().message);
  return gbps;
}
