// The default text output, line for line the original vgwrdma cuobjtest's: header, rows,
// OVERALL, avg/min/max, closing line; stderr lines for a run that did not verify.
import { describe, expect, it } from 'vitest';
import type { Iteration, RunResult } from '../src/result.js';
import { failureLines, fmtDur, fmtGBps, fmtSize, modeLabel, runBlock } from '../src/text-report.js';

const MiB = 2 ** 20;
const it_ = (latencyMs: number, checksum?: string): Iteration => ({
  latencyMs,
  gbps: (64 * MiB) / latencyMs / 1e6,
  ...(checksum === undefined ? {} : { checksum }),
});
const dir = (its: Iteration[]) => ({
  gbps: 0,
  latencyMs: { avg: 0, min: 0, max: 0, p50: 0, p99: 0 },
  iterations: its,
});

function result(over: Partial<RunResult> = {}): RunResult {
  return {
    mode: 'rdma',
    transport: 'softnic',
    memory: 'host',
    sizeBytes: 64 * MiB,
    iterations: 2,
    concurrency: 1,
    endpoint: 'http://127.0.0.1:7070',
    bucket: 'cuobjtest',
    put: dir([it_(100), it_(50)]),
    get: dir([it_(40, 'OK'), it_(1250, 'OK')]),
    verified: true,
    ...over,
  };
}

describe('the original text format', () => {
  it('formats durations, GB/s and sizes as the original does', () => {
    expect([fmtDur(12.345), fmtDur(999.994), fmtDur(1000), fmtDur(1234.5)]).toEqual([
      '12.35 ms',
      '999.99 ms',
      '1.00 s',
      '1.23 s',
    ]);
    expect([fmtGBps(1e9, 1000), fmtGBps(64 * MiB, 100), fmtGBps(1, 0)]).toEqual([
      '1.000 GB/s',
      '0.671 GB/s',
      '-',
    ]);
    expect([fmtSize(64 * MiB), fmtSize(2 ** 30), fmtSize(4096), fmtSize(1000), fmtSize(1.5 * MiB)]).toEqual([
      '64 MiB',
      '1 GiB',
      '4 KiB',
      '1000 B',
      '1536 KiB',
    ]);
    expect(modeLabel({ mode: 'rdma', memory: 'host' })).toBe('host-memory-cuobject-token');
    expect(modeLabel({ mode: 'rdma', memory: 'cuda' })).toBe('real-cuda-cuobject-token');
    expect(modeLabel({ mode: 'std-s3', memory: 'host' })).toBe('standard-s3');
  });

  it('PUT and GET: every line of a verified run', () => {
    expect(runBlock(result())).toEqual([
      '',
      'cuobjtest    endpoint=http://127.0.0.1:7070         size=64 MiB  iterations=2',
      '            mode=host-memory-cuobject-token',
      '',
      '#     PUT latency    PUT GB/s     GET latency    GET GB/s     checksum',
      '-'.repeat(70),
      '1     100.00 ms      0.671 GB/s   40.00 ms       1.678 GB/s   OK',
      '2     50.00 ms       1.342 GB/s   1.25 s         0.054 GB/s   OK',
      '-'.repeat(70),
      'OVERALL elapsed=1.44 s  PUT agg=0.895 GB/s (2 ops, 13.33 ops/s)  GET agg=0.104 GB/s (2 ops, 1.55 ops/s)  COMBINED=0.186 GB/s',
      'PUT  avg=75.00 ms    min=50.00 ms    max=100.00 ms   avg 0.895 GB/s',
      'GET  avg=645.00 ms   min=40.00 ms    max=1.25 s      avg 0.104 GB/s',
      '',
      'All checksums OK.',
    ]);
  });

  it('one direction, one iteration: two columns, no avg lines, the "-only run complete." line', () => {
    const { get: _g, ...noGet } = result({ iterations: 1, put: dir([it_(100)]) });
    const put = runBlock(noGet);
    // the original's printf pads the last column too
    expect(put.slice(4, 7)).toEqual([
      '#     PUT latency    PUT GB/s  ',
      '-'.repeat(70),
      '1     100.00 ms      0.671 GB/s',
    ]);
    expect(put.slice(-4)).toEqual([
      '-'.repeat(70),
      'OVERALL elapsed=100.00 ms  PUT agg=0.671 GB/s (1 ops, 10.00 ops/s)',
      '',
      'PUT-only run complete.',
    ]);
    const { put: _p, ...noPut } = result({ iterations: 1, get: dir([it_(40, 'OK')]) });
    const get = runBlock({ ...noPut, mode: 'std-s3' });
    expect(get[2]).toBe('            mode=standard-s3');
    expect(get[4]).toBe('#     GET latency    GET GB/s  ');
    expect(get.slice(-2)).toEqual(['', 'GET-only run complete.']);
  });

  it('a mismatch: the row says so, no closing line, stderr has the count and the details', () => {
    const bad = result({
      get: dir([it_(40, 'OK'), it_(41, 'MISMATCH put=0a0b0c0d get=00000000')]),
      verified: false,
      failures: ['GET iteration 2, cuobjtest-object: CRC32 0x00000000 read back, 0x0a0b0c0d written'],
    });
    const block = runBlock(bad);
    expect(block[7]).toMatch(/ {3}MISMATCH put=0a0b0c0d get=00000000$/);
    expect(block).not.toContain('All checksums OK.');
    expect(failureLines(bad)).toEqual([
      'cuobjtest: 1/2 iterations had checksum mismatches',
      'cuobjtest: GET iteration 2, cuobjtest-object: CRC32 0x00000000 read back, 0x0a0b0c0d written',
    ]);
    expect(failureLines(result())).toEqual([]);
  });
});
