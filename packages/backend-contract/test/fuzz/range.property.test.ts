// Property tests of the Range header: parseRange + resolveRange against a model written with
// BigInt from RFC 7233 and S3's rules (a syntactically invalid or multi-range header is ignored;
// a satisfiable range is clipped to the object; an unsatisfiable one is 416 InvalidRange). Headers
// come from the grammar, from its near misses, and from random text. Runs: FUZZ_RUNS (CI 300,
// stress 10^6).
import { fuzzSettings } from '@vgwrdma/fuzz-kit';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isS3Error } from '../../src/errors/s3-error.js';
import { parseRange, resolveRange } from '../../src/range.js';

const { timeout: TIMEOUT, params: FUZZ } = fuzzSettings(300, { msPerRun: 1 });

type Outcome = { kind: 'whole' } | { kind: 'range'; start: bigint; end: bigint } | { kind: 'invalid' };

function model(header: string | undefined, size: bigint): Outcome {
  const m = header === undefined ? null : /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m) return { kind: 'whole' };
  const [, a = '', b = ''] = m;
  if (a === '' && b === '') return { kind: 'whole' };
  if (a === '') {
    const n = BigInt(b);
    if (n === 0n || size === 0n) return { kind: 'invalid' };
    return { kind: 'range', start: size - (n < size ? n : size), end: size - 1n };
  }
  const first = BigInt(a);
  const last = b === '' ? undefined : BigInt(b);
  if (last !== undefined && last < first) return { kind: 'whole' };
  if (first >= size) return { kind: 'invalid' };
  return { kind: 'range', start: first, end: last === undefined || last > size - 1n ? size - 1n : last };
}

function actual(header: string | undefined, size: number): Outcome {
  const range = parseRange(header);
  if (!range) return { kind: 'whole' };
  try {
    const r = resolveRange(range, size);
    return { kind: 'range', start: BigInt(r.start), end: BigInt(r.end) };
  } catch (err) {
    if (!isS3Error(err) || err.code !== 'InvalidRange' || err.status !== 416) throw err;
    return { kind: 'invalid' };
  }
}

// Digits of any length, with edges around 2^53 where a double stops being exact.
const digits = fc.oneof(
  fc.constantFrom(
    '',
    '0',
    '1',
    '00',
    '9007199254740991',
    '9007199254740992',
    '9007199254740993',
    '18446744073709551616',
  ),
  fc.bigInt({ min: 0n, max: 1n << 70n }).map(String),
  fc.integer({ min: 0, max: 5000 }).map(String),
);
const noise = fc.constantFrom(
  '',
  ' ',
  'bytes',
  'bytes=',
  '=',
  '-',
  ',',
  ',0-1',
  'Bytes=',
  'bytes =',
  '+',
  '-1',
  'e3',
  '0x1',
  '\t',
);
const headerArb = fc.oneof(
  fc.tuple(digits, digits).map(([a, b]) => `bytes=${a}-${b}`),
  fc.tuple(noise, digits, noise, digits, noise).map(([p, a, m, b, s]) => `${p}bytes=${a}${m || '-'}${b}${s}`),
  fc.string({ maxLength: 40 }),
);
const sizeArb = fc.oneof(fc.constantFrom(0, 1, 2, 5000), fc.integer({ min: 0, max: 5 * 1024 ** 3 }));

describe('Range header (property)', () => {
  it('agrees with the BigInt model: whole object, the clipped range, or 416 InvalidRange', {
    timeout: TIMEOUT,
  }, () => {
    fc.assert(
      fc.property(fc.option(headerArb, { nil: undefined }), sizeArb, (header, size) => {
        const got = actual(header, size);
        expect(got).toEqual(model(header, BigInt(size)));
        if (got.kind === 'range') {
          expect(got.start >= 0n && got.start <= got.end && got.end < BigInt(size)).toBe(true);
        }
      }),
      FUZZ,
    );
  });
});
