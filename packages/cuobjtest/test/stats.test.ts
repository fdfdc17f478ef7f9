import { describe, expect, it } from 'vitest';
import { renderHtml, renderSvg } from '../src/plot-report.js';
import type { RunResult } from '../src/result.js';
import { gbps, median, percentile, summarize } from '../src/stats.js';

describe('stats', () => {
  it('summaries use nearest-rank percentiles', () => {
    const v = Array.from({ length: 100 }, (_, i) => 100 - i); // 100..1, unsorted
    expect(summarize(v)).toEqual({ avg: 50.5, min: 1, max: 100, p50: 50, p99: 99 });
    expect(summarize([7])).toEqual({ avg: 7, min: 7, max: 7, p50: 7, p99: 7 });
    expect(percentile([1, 2, 3], 0)).toBe(1);
    expect(median([3, 1, 2])).toBe(2);
  });

  it('GB/s is decimal', () => {
    expect(gbps(1e9, 1000)).toBe(1);
    expect(gbps(64 * 2 ** 20, 100)).toBeCloseTo(0.671, 3);
  });
});

describe('plot report', () => {
  const result = (mode: RunResult['mode'], size: number, put: number, get: number): RunResult => ({
    mode,
    transport: mode === 'rdma' ? 'softnic' : 'http',
    memory: 'host',
    sizeBytes: size,
    iterations: 1,
    concurrency: 1,
    endpoint: 'e',
    bucket: 'b',
    put: { gbps: put, latencyMs: { avg: 1, min: 1, max: 1, p50: 1, p99: 1 }, iterations: [] },
    get: { gbps: get, latencyMs: { avg: 1, min: 1, max: 1, p50: 1, p99: 1 }, iterations: [] },
    verified: true,
  });

  it('draws one line per mode and direction through every size, labelled', () => {
    const rs = [
      result('rdma', 2 ** 20, 1, 2),
      result('rdma', 2 ** 24, 1.5, 3),
      result('std-s3', 2 ** 20, 0.5, 0.7),
      result('std-s3', 2 ** 24, 0.6, 0.8),
    ];
    const svg = renderSvg(rs);
    expect(svg.startsWith('<svg')).toBe(true);
    expect(svg.match(/<polyline /g)?.length).toBe(4);
    expect(svg.match(/<circle /g)?.length).toBe(8);
    for (const label of ['rdma PUT', 'rdma GET', 'std-s3 PUT', 'std-s3 GET', '1MiB', '16MiB'])
      expect(svg).toContain(label);
    expect(svg).toContain('rdma GET 16MiB: 3.000 GB/s');
    const html = renderHtml(rs);
    expect(html).toContain('<svg');
    expect(html.match(/<tr><td>/g)?.length).toBe(4);
  });
});
