// The default text output, line for line the original vgwrdma cuobjtest's, so scripts written for
// it keep working: a header (endpoint, size, iterations, mode), one row per iteration (PUT and
// GET latency and GB/s, checksum status), an OVERALL line, avg/min/max lines when n > 1, and
// "All checksums OK." (or "PUT-only run complete." / "GET-only run complete."). Everything
// richer (percentiles, CPU time, GPU staging, per-pair ratios) is in --json and --report.
// One block per run: sweeps and --compare (this tool's additions) print one block each.

import type { DirectionResult, Iteration, RunResult } from './result.js';

const RULE = '-'.repeat(70);

/** The original's mode names: the session's memory for RDMA, or plain S3. */
export function modeLabel(r: Pick<RunResult, 'mode' | 'memory'>): string {
  if (r.mode === 'std-s3') return 'standard-s3';
  return r.memory === 'cuda' ? 'real-cuda-cuobject-token' : 'host-memory-cuobject-token';
}

/** "12.34 ms", or "1.23 s" from a second on. */
export function fmtDur(ms: number): string {
  return ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(2)} ms`;
}

/** Decimal GB/s with three decimals; "-" for a zero time. */
export function fmtGBps(bytes: number, ms: number): string {
  return ms > 0 ? `${(bytes / ms / 1e6).toFixed(3)} GB/s` : '-';
}

/** Binary units when the size divides evenly ("64 MiB", "1 GiB"), else bytes ("1000 B"). */
export function fmtSize(n: number): string {
  for (const [unit, bytes] of [
    ['GiB', 2 ** 30],
    ['MiB', 2 ** 20],
    ['KiB', 2 ** 10],
  ] as const) {
    if (n >= bytes && n % bytes === 0) return `${n / bytes} ${unit}`;
  }
  return `${n} B`;
}

const pad = (s: string | number, width: number) => String(s).padEnd(width);

function directions(r: RunResult): { put?: DirectionResult; get?: DirectionResult } {
  return { ...(r.put ? { put: r.put } : {}), ...(r.get ? { get: r.get } : {}) };
}

/** The header block: a blank line, endpoint/size/iterations, the mode, the column names, a rule. */
export function headerLines(r: RunResult): string[] {
  const { put, get } = directions(r);
  const columns =
    put && get
      ? `${pad('#', 4)}  ${pad('PUT latency', 14)} ${pad('PUT GB/s', 10)}   ${pad('GET latency', 14)} ${pad('GET GB/s', 10)}   checksum`
      : `${pad('#', 4)}  ${pad(put ? 'PUT latency' : 'GET latency', 14)} ${pad(put ? 'PUT GB/s' : 'GET GB/s', 10)}`;
  return [
    '',
    `cuobjtest    endpoint=${pad(r.endpoint, 28)}  size=${fmtSize(r.sizeBytes)}  iterations=${r.iterations}`,
    `            mode=${modeLabel(r)}`,
    '',
    columns, // trailing blanks as the original's printf leaves them
    RULE,
  ];
}

/** One row per iteration: `#  PUT latency PUT GB/s   GET latency GET GB/s   OK`. */
export function iterationRows(r: RunResult): string[] {
  const { put, get } = directions(r);
  const bytes = r.sizeBytes * r.concurrency;
  const cell = (it: Iteration | undefined) =>
    it === undefined ? ['-', '-'] : [fmtDur(it.latencyMs), fmtGBps(bytes, it.latencyMs)];
  const rows: string[] = [];
  for (let i = 0; i < r.iterations; i++) {
    const p = put?.iterations[i];
    const g = get?.iterations[i];
    if (put && get) {
      const [pl, pg] = cell(p);
      const [gl, gg] = cell(g);
      rows.push(
        `${pad(i + 1, 4)}  ${pad(pl as string, 14)} ${pad(pg as string, 10)}   ${pad(gl as string, 14)} ${pad(gg as string, 10)}   ${g?.checksum ?? 'OK'}`,
      );
    } else {
      const [l, gbps] = cell(p ?? g);
      rows.push(`${pad(i + 1, 4)}  ${pad(l as string, 14)} ${pad(gbps as string, 10)}`);
    }
  }
  return rows;
}

/** The rule, OVERALL (elapsed, per-direction aggregate GB/s and ops/s, COMBINED), avg/min/max. */
export function summaryLines(r: RunResult): string[] {
  const { put, get } = directions(r);
  const perOp = r.sizeBytes * r.concurrency;
  const wall = (d: DirectionResult | undefined) => d?.iterations.reduce((a, it) => a + it.latencyMs, 0) ?? 0;
  const elapsed = wall(put) + wall(get);
  let overall = `OVERALL elapsed=${fmtDur(elapsed)}`;
  for (const [name, d] of [
    ['PUT', put],
    ['GET', get],
  ] as const) {
    if (!d) continue;
    const ops = d.iterations.length * r.concurrency;
    const ms = wall(d);
    overall += `  ${name} agg=${fmtGBps(perOp * d.iterations.length, ms)} (${ops} ops, ${(ops / (ms / 1000)).toFixed(2)} ops/s)`;
  }
  if (put && get) {
    const bytes = perOp * (put.iterations.length + get.iterations.length);
    overall += `  COMBINED=${fmtGBps(bytes, elapsed)}`;
  }
  const out = [RULE, overall];
  if (r.iterations > 1) {
    for (const [name, d] of [
      ['PUT', put],
      ['GET', get],
    ] as const) {
      if (!d) continue;
      const t = d.iterations.map((it) => it.latencyMs);
      const avg = t.reduce((a, b) => a + b, 0) / t.length;
      out.push(
        `${name}  avg=${pad(fmtDur(avg), 10)}  min=${pad(fmtDur(Math.min(...t)), 10)}  max=${pad(fmtDur(Math.max(...t)), 10)}  avg ${fmtGBps(perOp, avg)}`,
      );
    }
  }
  return out;
}

/** The closing line of a verified run, as the original prints it (after a blank line). */
export function closingLines(r: RunResult): string[] {
  if (!r.put) return ['', 'GET-only run complete.'];
  if (!r.get) return ['', 'PUT-only run complete.'];
  return ['', 'All checksums OK.'];
}

/** Managed runs (not in the original): part size, parts in flight, parts, retries and the ETag. */
export function managedLines(r: RunResult): string[] {
  const m = r.managed;
  if (!m) return [];
  const out = [`managed  part-size=${fmtSize(m.partSize)}  part-concurrency=${m.partConcurrency}`];
  for (const [name, d] of [
    ['PUT', m.put],
    ['GET', m.get],
  ] as const) {
    if (d) out.push(`${name}  parts=${d.parts}  retries=${d.retries}${d.etag ? `  etag=${d.etag}` : ''}`);
  }
  return out;
}

/** The whole block of one run. The closing line only when it verified (else stderr says why). */
export function runBlock(r: RunResult): string[] {
  return [
    ...headerLines(r),
    ...iterationRows(r),
    ...summaryLines(r),
    ...managedLines(r),
    ...(r.verified ? closingLines(r) : []),
  ];
}

/** --compare: the per-pair ratios under the RDMA block (not in the original, which had no compare). */
export function compareLines(r: RunResult): string[] {
  const out: string[] = [];
  for (const d of ['put', 'get'] as const) {
    const ratio = r.vsStdS3?.[d];
    if (ratio)
      out.push(
        `${d.toUpperCase()} rdma/std-s3 median ${ratio.median.toFixed(2)}x  pairs ${ratio.pairs.map((p) => p.toFixed(2)).join(' ')}`,
      );
  }
  return out;
}

/** What goes to stderr for a run that did not verify: the original's count line, then each failure. */
export function failureLines(r: RunResult): string[] {
  if (r.verified) return [];
  const mismatched = (r.get?.iterations ?? []).filter(
    (it) => it.checksum !== undefined && it.checksum !== 'OK',
  );
  const head =
    mismatched.length > 0
      ? [`cuobjtest: ${mismatched.length}/${r.iterations} iterations had checksum mismatches`]
      : [];
  return [...head, ...(r.failures ?? []).map((f) => `cuobjtest: ${f}`)];
}
