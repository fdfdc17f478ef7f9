// Human-readable output: one line per iteration as it happens, then an aggregate block per run.

import { formatByteSize } from '@vgwrdma/rdma-protocol';
import type { Iteration, RunResult } from './result.js';

const f1 = (n: number) => n.toFixed(1);
const f3 = (n: number) => n.toFixed(3);

export function iterationLine(
  mode: string,
  size: number,
  direction: 'put' | 'get',
  index: number,
  n: number,
  it: Iteration,
): string {
  return `${mode.padEnd(6)} ${formatByteSize(size).padStart(7)}  ${direction.toUpperCase().padEnd(3)} ${String(index).padStart(3)}/${n}  ${f1(it.latencyMs).padStart(9)} ms  ${f3(it.gbps).padStart(8)} GB/s`;
}

export function summaryLines(r: RunResult): string[] {
  const out = [
    `== ${r.mode} (${r.transport}${r.memory === 'cuda' ? `, GPU memory: ${r.device ?? 'cuda'}` : ''}) ${formatByteSize(r.sizeBytes)} x${r.iterations}${r.concurrency > 1 ? ` concurrency ${r.concurrency}` : ''}: ${r.verified ? 'verified' : 'NOT VERIFIED'}`,
  ];
  for (const d of ['put', 'get'] as const) {
    const x = r[d];
    if (!x) continue;
    const l = x.latencyMs;
    out.push(
      `   ${d.toUpperCase()} ${f3(x.gbps)} GB/s  latency ms avg ${f1(l.avg)} min ${f1(l.min)} max ${f1(l.max)} p50 ${f1(l.p50)} p99 ${f1(l.p99)}`,
    );
    const ops = x.iterations.length * r.concurrency;
    if (x.clientCpuMs !== undefined && ops > 0)
      out.push(
        `   ${d.toUpperCase()} CPU ms per transfer: client ${f1(x.clientCpuMs / ops)}${x.serverCpuMs === undefined ? '' : `, server ${f1(x.serverCpuMs / ops)}`}`,
      );
    if (x.stagingMs)
      out.push(
        `   ${d.toUpperCase()} of which device<->host staging ms avg ${f1(x.stagingMs.avg)} p50 ${f1(x.stagingMs.p50)}`,
      );
  }
  for (const d of ['put', 'get'] as const) {
    const ratio = r.vsStdS3?.[d];
    if (ratio)
      out.push(
        `   ${d.toUpperCase()} rdma/std-s3 median ${ratio.median.toFixed(2)}x  pairs ${ratio.pairs.map((p) => p.toFixed(2)).join(' ')}`,
      );
  }
  for (const f of r.failures ?? []) out.push(`   FAILED ${f}`);
  return out;
}
