// cuobjtest's built bin (dist/main.js) against a real gateway process (posix + CuServer +
// cu-middleware, softnic): both modes, --compare, a --sizes sweep with a report, and a failing
// verification path. Assertions are on the --json document, never on times.

import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunResult } from '../src/index.js';
import { BIN, binAgainstGateway } from './bin-against-gateway.js';
import { runArgs } from './run-args.js';

const MiB = 2 ** 20;
/** The object the split runs share. */
const SPLIT = { bucket: 'e2e-split', key: 'split' } as const;

describe('cuobjtest against a gateway process', () => {
  const bin = binAgainstGateway();
  const cuobjtest = (...args: string[]) => bin.cuobjtest(args);
  let scratch: string;

  beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), 'cuobjtest-e2e-'));
  });
  afterAll(async () => {
    if (scratch) await rm(scratch, { recursive: true, force: true });
  });

  function expectRun(r: RunResult, mode: RunResult['mode'], size: number, n: number): void {
    expect(r).toMatchObject({
      mode,
      transport: mode === 'rdma' ? 'softnic' : 'http',
      sizeBytes: size,
      iterations: n,
      verified: true,
    });
    for (const d of [r.put, r.get]) {
      expect(d?.gbps).toBeGreaterThan(0);
      expect(d?.iterations).toHaveLength(n);
      expect(Object.keys(d?.latencyMs ?? {}).sort()).toEqual(['avg', 'max', 'min', 'p50', 'p99']);
      expect(d?.latencyMs.min).toBeLessThanOrEqual(d?.latencyMs.max ?? 0);
    }
  }

  it('rdma mode (the default): verified PUT and GET, JSON only on stdout; the bucket is created', async () => {
    const { code, stdout } = await cuobjtest(
      ...runArgs({ bucket: 'e2e-rdma', size: '4MiB', n: 2 }, '--json'),
    );
    expect(code).toBe(0);
    const r = JSON.parse(stdout) as RunResult;
    expectRun(r, 'rdma', 4 * MiB, 2);
    const stored = await readFile(join(bin.gw().root, 'e2e-rdma', 'cuobjtest-object'));
    expect(stored.length).toBe(4 * MiB);
  });

  /** -std-s3 runs whose --json document is checked as a whole (expectRun). */
  const STD_RUNS = [
    {
      name: '-std-s3 mode: the same document for plain HTTP bodies',
      shape: { bucket: 'e2e-std', size: '3MiB', n: 2 },
      bytes: 3 * MiB,
      more: [],
    },
    {
      name: '-warmup: untimed iterations first, only the -n timed ones recorded, still verified',
      shape: { bucket: 'e2e-warm', size: '1MiB', n: 1 },
      bytes: MiB,
      more: ['-warmup', '2'],
    },
  ];
  for (const run of STD_RUNS) {
    it(run.name, async () => {
      const { code, stdout } = await cuobjtest(...runArgs(run.shape, ...run.more, '-std-s3', '--json'));
      expect(code).toBe(0);
      expectRun(JSON.parse(stdout) as RunResult, 'std-s3', run.bytes, run.shape.n);
    });
  }

  it('--compare with --concurrency 2: both modes alternately, per-pair ratios on the rdma result', async () => {
    const { code, stdout } = await cuobjtest(
      ...runArgs({ bucket: 'e2e-cmp', size: '2MiB', n: 2 }, '--compare', '--concurrency', '2', '--json'),
    );
    expect(code).toBe(0);
    const [rdma, std] = JSON.parse(stdout) as RunResult[];
    expectRun(rdma as RunResult, 'rdma', 2 * MiB, 2);
    expectRun(std as RunResult, 'std-s3', 2 * MiB, 2);
    expect(rdma?.concurrency).toBe(2);
    expect(rdma?.vsStdS3?.put?.pairs).toHaveLength(2);
    expect(rdma?.vsStdS3?.get?.pairs).toHaveLength(2);
    expect(rdma?.vsStdS3?.get?.median).toBeGreaterThan(0);
  });

  it("default text output is the original cuobjtest's lines: header, rows, OVERALL, avg lines, All checksums OK.", async () => {
    const { code, stdout } = await cuobjtest(...runArgs({ bucket: 'e2e-text', size: '1MiB', n: 2 }));
    expect(code).toBe(0);
    const lines = stdout.split('\n');
    const at = lines.indexOf('cuobjtest: created bucket "e2e-text"');
    expect(at).toBe(0);
    expect(lines[1]).toBe('');
    expect(lines[2]).toBe(`cuobjtest    endpoint=${bin.gw().endpoint.padEnd(28)}  size=1 MiB  iterations=2`);
    expect(lines[3]).toBe('            mode=host-memory-cuobject-token');
    expect(lines[4]).toBe('');
    expect(lines[5]).toBe('#     PUT latency    PUT GB/s     GET latency    GET GB/s     checksum');
    expect(lines[6]).toBe('-'.repeat(70));
    const row =
      /^(\d) {3} {2}(\d+\.\d{2} (?:ms|s)) *(\d+\.\d{3} GB\/s) *(\d+\.\d{2} (?:ms|s)) *(\d+\.\d{3} GB\/s) {3}OK$/;
    expect(lines[7]).toMatch(row);
    expect(lines[8]).toMatch(row);
    expect(lines[7]?.slice(0, 6)).toBe('1     ');
    // columns line up: the PUT GB/s value starts under its heading (column 21, after "#" and the latency)
    expect(lines[5]?.slice(21)).toMatch(/^PUT GB\/s/);
    expect(lines[7]?.slice(20)).toMatch(/^ \d+\.\d{3} GB\/s/);
    expect(lines[9]).toBe('-'.repeat(70));
    expect(lines[10]).toMatch(
      /^OVERALL elapsed=\d+\.\d{2} m?s {2}PUT agg=\d+\.\d{3} GB\/s \(2 ops, \d+\.\d{2} ops\/s\) {2}GET agg=\d+\.\d{3} GB\/s \(2 ops, \d+\.\d{2} ops\/s\) {2}COMBINED=\d+\.\d{3} GB\/s$/,
    );
    expect(lines[11]).toMatch(
      /^PUT {2}avg=[\d.]+ m?s +min=[\d.]+ m?s +max=[\d.]+ m?s +avg \d+\.\d{3} GB\/s$/,
    );
    expect(lines[12]).toMatch(
      /^GET {2}avg=[\d.]+ m?s +min=[\d.]+ m?s +max=[\d.]+ m?s +avg \d+\.\d{3} GB\/s$/,
    );
    expect(lines.slice(13)).toEqual(['', 'All checksums OK.', '']);
  });

  it('-std-s3 -put-only text: its mode and columns, and "PUT-only run complete."', async () => {
    const { code, stdout } = await cuobjtest(
      ...runArgs({ bucket: 'e2e-text', size: '1MiB', n: 1 }, '-std-s3', '-put-only'),
    );
    expect(code).toBe(0);
    expect(stdout).toMatch(/^ {12}mode=standard-s3$/m);
    expect(stdout).toMatch(/^# {5}PUT latency {4}PUT GB\/s {2}$/m);
    expect(stdout).toMatch(/^1 {5}\d+\.\d{2} m?s +\d+\.\d{3} GB\/s *$/m);
    expect(stdout).not.toMatch(/^PUT {2}avg=/m); // one iteration: no avg lines
    expect(stdout.endsWith('\nPUT-only run complete.\n')).toBe(true);
    expect(stdout).not.toContain('created bucket'); // it exists now
  });

  it('without -secret or AWS_SECRET_ACCESS_KEY: exit 1, as the original', async () => {
    const { code, stderr } = await promisify(execFile)(
      process.execPath,
      [BIN, '-endpoint', bin.gw().endpoint],
      {
        env: { PATH: process.env.PATH ?? '' },
      },
    ).then(
      () => ({ code: 0, stderr: '' }),
      (e: { code: number; stderr: string }) => e,
    );
    expect(code).toBe(1);
    expect(stderr).toMatch(/^cuobjtest: -secret or AWS_SECRET_ACCESS_KEY is required$/m);
  });

  it('--sizes sweep writes an SVG report; text mode prints one original block per size', async () => {
    const report = join(scratch, 'sweep.svg');
    const { code, stdout } = await cuobjtest(
      '-bucket',
      'e2e-sweep',
      '--sizes',
      '1MiB,2MiB',
      '-n',
      '1',
      '--report',
      report,
    );
    expect(code).toBe(0);
    expect(stdout).toMatch(/ size=1 MiB {2}iterations=1$/m);
    expect(stdout).toMatch(/ size=2 MiB {2}iterations=1$/m);
    expect(stdout.match(/^All checksums OK\.$/gm)).toHaveLength(2);
    const svg = await readFile(report, 'utf8');
    expect(svg).toContain('<svg');
    expect(svg).toContain('rdma GET');
  });

  it('-put-only then -get-only of the same object, each verified', async () => {
    // In order: the -get-only run reads what the -put-only run stored.
    const phases = [
      { flag: '-put-only', n: 1, moved: 'put', idle: 'get' },
      { flag: '-get-only', n: 2, moved: 'get', idle: 'put' },
    ] as const;
    for (const { flag, n, moved, idle } of phases) {
      const { code, stdout } = await cuobjtest(...runArgs({ ...SPLIT, size: '1MiB', n }, flag, '--json'));
      expect(code, flag).toBe(0);
      const r = JSON.parse(stdout) as RunResult;
      expect([r.verified, r[moved]?.iterations.length, r[idle]], flag).toEqual([true, n, undefined]);
    }
  });

  it('a failing transfer exits 1 with the reason: -get-only of an object of another size', async () => {
    const { code, stderr } = await cuobjtest(
      ...runArgs({ ...SPLIT, size: '2MiB', n: 1 }, '-get-only', '--json'),
    );
    expect(code).toBe(1);
    expect(stderr).toMatch(/1048576 bytes, expected 2097152/);
  });

  it('a usage error exits 2', async () => {
    const { code, stderr } = await cuobjtest('-size', 'lots');
    expect(code).toBe(2);
    expect(stderr).toMatch(/invalid size 'lots'/);
  });
});
