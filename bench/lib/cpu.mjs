// Server-side efficiency next to throughput: cuobjtest -server-pid records, for every timed
// iteration, the CPU time of the server process (utime + stime of /proc/PID/stat, all threads,
// 10 ms ticks) and of the client process itself (process.cpuUsage(), all threads). Summed over the
// iterations of one side they give CPU per operation / per GB, and how many cores each side kept
// busy during the timed windows — which says which side bounds the throughput.

import { round } from './stats.mjs';

/** A side keeps its bottleneck thread busy from this many cores of CPU per wall second on. */
const SATURATED = 0.85;

/** Adds up the direction results (`put` or `get`) of several cuobjtest results. */
export function sumCpu(results, d) {
  const acc = { ops: 0, bytes: 0, wallMs: 0, clientCpuMs: 0, serverCpuMs: 0, complete: true };
  for (const r of results) {
    const x = r?.[d];
    if (!x) continue;
    acc.ops += x.iterations.length * r.concurrency;
    acc.bytes += x.iterations.length * r.concurrency * r.sizeBytes;
    acc.wallMs += x.iterations.reduce((a, it) => a + it.latencyMs, 0);
    if (x.clientCpuMs === undefined || x.serverCpuMs === undefined) acc.complete = false;
    acc.clientCpuMs += x.clientCpuMs ?? 0;
    acc.serverCpuMs += x.serverCpuMs ?? 0;
  }
  return acc;
}

/** Which side's CPU bounds a throughput: 'server', 'client', 'both', 'all cores', or 'neither'. */
export function boundBy(serverCores, clientCores, cpus) {
  if (serverCores + clientCores >= 0.9 * cpus) return `all ${cpus} cores`;
  const s = serverCores >= SATURATED;
  const c = clientCores >= SATURATED;
  if (s && c) return 'both';
  if (s) return 'server';
  if (c) return 'client';
  return 'neither (waits)';
}

/** CPU figures of summed results: per operation, per GB, cores busy, and the bound. */
export function cpuFigures(results, d, cpus) {
  const a = sumCpu(results, d);
  if (a.ops === 0 || !a.complete || a.wallMs <= 0) return null;
  const serverCores = a.serverCpuMs / a.wallMs;
  const clientCores = a.clientCpuMs / a.wallMs;
  const gb = a.bytes / 1e9;
  return {
    ops: a.ops,
    wallMs: round(a.wallMs, 1),
    serverCpuMs: round(a.serverCpuMs, 1),
    clientCpuMs: round(a.clientCpuMs, 1),
    serverCpuMsPerOp: round(a.serverCpuMs / a.ops, 2),
    clientCpuMsPerOp: round(a.clientCpuMs / a.ops, 2),
    serverCpuSecPerGB: round(a.serverCpuMs / 1000 / gb, 2),
    clientCpuSecPerGB: round(a.clientCpuMs / 1000 / gb, 2),
    serverCores: round(serverCores, 2),
    clientCores: round(clientCores, 2),
    boundBy: boundBy(serverCores, clientCores, cpus),
  };
}
