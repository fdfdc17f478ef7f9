// Latency summaries (avg/min/max/p50/p99, nearest-rank percentiles) and decimal GB/s.

export interface LatencySummary {
  readonly avg: number;
  readonly min: number;
  readonly max: number;
  readonly p50: number;
  readonly p99: number;
}

/** Nearest-rank percentile of sorted values. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] as number;
}

export function summarize(values: readonly number[]): LatencySummary {
  const sorted = [...values].sort((a, b) => a - b);
  const sum = sorted.reduce((a, b) => a + b, 0);
  return {
    avg: sorted.length ? sum / sorted.length : Number.NaN,
    min: sorted[0] ?? Number.NaN,
    max: sorted[sorted.length - 1] ?? Number.NaN,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
  };
}

/** Decimal gigabytes per second (1e9 bytes). */
export function gbps(bytes: number, ms: number): number {
  return ms > 0 ? bytes / 1e6 / ms : Number.POSITIVE_INFINITY;
}

export function median(values: readonly number[]): number {
  return percentile(
    [...values].sort((a, b) => a - b),
    50,
  );
}
