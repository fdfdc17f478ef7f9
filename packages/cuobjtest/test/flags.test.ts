import { readFileSync } from 'node:fs';
import { BYTE_SIZE_FORMS } from '@vgwrdma/cli-options';
import { describe, expect, it } from 'vitest';
import { partsOf } from '../src/bench.js';
import { FLAGS, parseFlags, UsageError, usage } from '../src/flags.js';

/** The secret every run needs (as the original cuobjtest, there is no default). */
const S = { AWS_SECRET_ACCESS_KEY: 'test-secret' };

describe('flags', () => {
  it("vgwrdma's defaults", () => {
    expect(parseFlags([], S)).toMatchObject({
      endpoint: 'http://localhost:7070',
      access: 'vgwrdma',
      bucket: 'cuobjtest',
      size: 64 * 2 ** 20,
      region: 'us-east-1',
      caBundle: undefined,
      n: 3,
      warmup: 0,
      putOnly: false,
      getOnly: false,
      stdS3: false,
      concurrency: 1,
      sizes: undefined,
      compare: false,
      json: false,
      report: undefined,
      serverPid: undefined,
    });
  });

  it('Go single-dash and GNU double-dash forms, with = or a separate value, booleans bare or =false', () => {
    const c = parseFlags(
      [
        '-endpoint',
        'http://h:1',
        '--size=1MiB',
        '-n=7',
        '--bucket',
        'b1',
        '-put-only',
        '--json',
        '-std-s3=false',
      ],
      S,
    );
    expect(c).toMatchObject({
      endpoint: 'http://h:1',
      size: 2 ** 20,
      n: 7,
      bucket: 'b1',
      putOnly: true,
      json: true,
      stdS3: false,
    });
    expect(parseFlags(['--sizes', '1MiB,16MiB,256MiB', '--concurrency', '4'], S).sizes).toEqual([
      2 ** 20,
      2 ** 24,
      2 ** 28,
    ]);
  });

  it('-warmup: 0 by default, any whole number', () => {
    expect(parseFlags([], S).warmup).toBe(0);
    expect(parseFlags(['-warmup', '0'], S).warmup).toBe(0);
    expect(parseFlags(['--warmup=5'], S).warmup).toBe(5);
  });

  it('access/secret/region fall back to the AWS environment; a flag wins', () => {
    const env = { AWS_ACCESS_KEY_ID: 'ak', AWS_SECRET_ACCESS_KEY: 'sk', AWS_REGION: 'eu-west-1' };
    expect(parseFlags([], env)).toMatchObject({ access: 'ak', secret: 'sk', region: 'eu-west-1' });
    expect(parseFlags(['-secret', 'flag'], env).secret).toBe('flag');
  });

  it('a missing secret is an error that exits 1, as in the original; -secret or the variable gives it', () => {
    const missing = (() => {
      try {
        parseFlags(['-access', 'a']);
      } catch (e) {
        return e;
      }
    })();
    expect(missing).toBeInstanceOf(UsageError);
    expect(missing).toMatchObject({ exitCode: 1, message: '-secret or AWS_SECRET_ACCESS_KEY is required' });
    expect(() => parseFlags(['-secret', ''])).toThrow(/-secret or AWS_SECRET_ACCESS_KEY is required/);
    expect(parseFlags(['-secret', 'x']).secret).toBe('x');
    expect(parseFlags(['-help']).help).toBe(true); // -help needs no secret
  });

  it.each([
    [['-size', '12XB'], /invalid size/],
    [['-n', '0'], /positive integer/],
    [['-warmup', '-1'], /0 or a positive integer/],
    [['-bogus'], /unknown flag/],
    [['stray'], /unexpected argument/],
    [['-key'], /needs a value/],
    [['-put-only', '-get-only'], /exclude each other/],
    [['-json=maybe'], /true or false/],
    [['-memory', 'gpu'], /must be host or cuda/],
    [['-memory', 'cuda', '-std-s3'], /for RDMA transfers/],
  ])('%j is a usage error', (argv, message) => {
    expect(() => parseFlags(argv, S)).toThrow(UsageError);
    expect(() => parseFlags(argv, S)).toThrow(
      expect.objectContaining({ code: 'VGW_ERR_USAGE', name: 'UsageError' }),
    );
    expect(() => parseFlags(argv, S)).toThrow(message);
  });

  it('-memory: host by default, cuda by flag or CUOBJTEST_MEMORY', () => {
    expect(parseFlags([], S).memory).toBe('host');
    expect(parseFlags(['--memory', 'cuda'], S).memory).toBe('cuda');
    expect(parseFlags(['-memory=cuda', '-compare'], S).memory).toBe('cuda'); // compares GPU RDMA with host HTTP
    expect(parseFlags([], { ...S, CUOBJTEST_MEMORY: 'cuda' }).memory).toBe('cuda');
  });

  it('-server-pid takes a pid', () => {
    expect(parseFlags(['-server-pid', '4242'], S).serverPid).toBe(4242);
    expect(() => parseFlags(['-server-pid', 'x'], S)).toThrow(/positive integer/);
  });

  it('--help lists every flag of the table', () => {
    const text = usage();
    for (const f of FLAGS) expect(text).toContain(`-${f.name}`);
    expect(text).toContain('(default 64MiB)');
  });

  it("the README's flag table lists every flag of the table (help and the table cannot drift)", () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const documented = new Set<string>();
    for (const line of readme.split('\n')) {
      if (!line.startsWith('| `')) continue;
      const first = line.slice(2, line.indexOf(' |', 2));
      for (const [, name] of first.matchAll(/`--?([a-z][a-z0-9-]*)/g)) documented.add(name as string);
    }
    const missing = FLAGS.map((f) => f.name).filter((name) => name !== 'help' && !documented.has(name));
    expect(missing, `flags without a row in README.md: ${missing.join(', ')}`).toEqual([]);
  });
});

describe('sizes', () => {
  it.each([
    ['4096', 4096],
    ['10B', 10],
    ['1K', 1024],
    ['1KB', 1000],
    ['2KiB', 2048],
    ['64M', 64 * 2 ** 20],
    ['64MB', 64_000_000],
    ['64MiB', 64 * 2 ** 20],
    ['1g', 2 ** 30],
    ['2GB', 2e9],
    ['1GiB', 2 ** 30],
    ['1.5MiB', 1.5 * 2 ** 20],
  ])('-size %s = %d bytes, by the rule vgwrdma --pool-buf-size uses too', (text, bytes) => {
    expect(parseFlags(['-size', text], S).size).toBe(bytes);
    expect(parseFlags([`--size=${text}`], S).size).toBe(bytes);
  });

  it('--sizes takes a comma-separated list of the same forms', () => {
    expect(parseFlags(['--sizes', '1MiB,16MB,4096'], S).sizes).toEqual([2 ** 20, 16e6, 4096]);
  });

  it('refuses junk, zero and fractions of a byte, naming the flag and the accepted forms', () => {
    for (const bad of ['MiB', '-1M', '0', '1.5B', '64XB']) {
      expect(() => parseFlags(['-size', bad], S)).toThrow(UsageError);
      expect(() => parseFlags(['-size', bad], S)).toThrow(
        new RegExp(`^-size: invalid size '${bad.replace('.', '\\.')}': `),
      );
    }
    expect(() => parseFlags(['-size', '64XB'], S)).toThrow(
      `-size: invalid size '64XB': expected ${BYTE_SIZE_FORMS}`,
    );
    expect(() => parseFlags(['--sizes', '1MiB,lots'], S)).toThrow(
      `-sizes: invalid size 'lots': expected ${BYTE_SIZE_FORMS}`,
    );
  });

  it('--help states the accepted forms', () => {
    expect(usage()).toContain(BYTE_SIZE_FORMS);
  });
});

describe('managed transfers', () => {
  const base = ['-secret', 's'];
  it('-part-size and -part-concurrency parse; managed when given, or when -size is above one session', () => {
    const c = parseFlags([...base, '-part-size', '16MiB', '-part-concurrency', '8']);
    expect(c).toMatchObject({ partSize: 16 * 2 ** 20, partConcurrency: 8 });
    expect(partsOf(c, 2 ** 20)).toEqual({ parts: { partSize: 16 * 2 ** 20, concurrency: 8 } });
    const plain = parseFlags(base);
    expect(partsOf(plain, 64 * 2 ** 20)).toEqual({});
    expect(partsOf(plain, 5 * 2 ** 30)).toEqual({ parts: { partSize: 64 * 2 ** 20, concurrency: 4 } });
    expect(() => parseFlags([...base, '-part-size', '4MiB'])).toThrow(/at least 5 MiB/);
    expect(() => parseFlags([...base, '-part-size', '5GiB'])).toThrow(/at most/);
    expect(usage()).toMatch(/-part-size SIZE/);
    expect(usage()).toMatch(/-part-concurrency N/);
  });
});
