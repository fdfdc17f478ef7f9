// parseRange / resolveRange / contentRangeHeader: the Range forms S3 honours, the ones it ignores,
// and when a range is unsatisfiable.
import { describe, expect, it } from 'vitest';
import { S3Error } from '../src/errors/s3-error.js';
import { contentRangeHeader, parseRange, resolveRange } from '../src/range.js';

describe('parseRange', () => {
  it.each([
    ['bytes=0-9', { kind: 'range', first: 0, last: 9 }],
    ['bytes=5-5', { kind: 'range', first: 5, last: 5 }],
    ['bytes=100-', { kind: 'range', first: 100 }],
    ['bytes=-20', { kind: 'suffix', length: 20 }],
    ['bytes=-0', { kind: 'suffix', length: 0 }],
    ['  bytes=1-2  ', { kind: 'range', first: 1, last: 2 }],
  ])('parses %j', (header, want) => {
    expect(parseRange(header)).toEqual(want);
  });

  it.each([
    [undefined],
    [''],
    ['bytes=-'],
    ['bytes=9-3'], // last before first: syntactically invalid, S3 ignores it
    ['bytes=0-1,3-4'], // multiple ranges: S3 answers the whole object
    ['items=0-9'],
    ['bytes=a-b'],
    ['bytes 0-9'],
    ['bytes=1.5-2'],
  ])('ignores %j (whole object)', (header) => {
    expect(parseRange(header)).toBeUndefined();
  });
});

describe('resolveRange', () => {
  it('keeps a range inside the object', () => {
    expect(resolveRange({ kind: 'range', first: 10, last: 19 }, 100)).toEqual({
      start: 10,
      end: 19,
      size: 100,
    });
  });

  it('clamps the end to the last byte', () => {
    expect(resolveRange({ kind: 'range', first: 90, last: 1000 }, 100)).toEqual({
      start: 90,
      end: 99,
      size: 100,
    });
  });

  it('reads an open-ended range to the end', () => {
    expect(resolveRange({ kind: 'range', first: 99 }, 100)).toEqual({ start: 99, end: 99, size: 100 });
  });

  it('answers the last n bytes for a suffix, all of them when n exceeds the size', () => {
    expect(resolveRange({ kind: 'suffix', length: 10 }, 100)).toEqual({ start: 90, end: 99, size: 100 });
    expect(resolveRange({ kind: 'suffix', length: 1000 }, 100)).toEqual({ start: 0, end: 99, size: 100 });
  });

  it.each([
    ['first byte at the size', { kind: 'range', first: 100 } as const, 100],
    ['first byte past the size', { kind: 'range', first: 150, last: 160 } as const, 100],
    ['zero-length suffix', { kind: 'suffix', length: 0 } as const, 100],
    ['any range of an empty object', { kind: 'range', first: 0, last: 0 } as const, 0],
    ['a suffix of an empty object', { kind: 'suffix', length: 5 } as const, 0],
  ])('throws InvalidRange (416) for %s, with the object size as detail', (_name, range, size) => {
    let caught: unknown;
    try {
      resolveRange(range, size);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(S3Error);
    const err = caught as S3Error;
    expect(err.code).toBe('InvalidRange');
    expect(err.status).toBe(416);
    expect(err.detail).toEqual({ ActualObjectSize: String(size) });
  });
});

describe('contentRangeHeader', () => {
  it('writes "bytes start-end/size"', () => {
    expect(contentRangeHeader({ start: 0, end: 0, size: 1 })).toBe('bytes 0-0/1');
    expect(contentRangeHeader(resolveRange({ kind: 'suffix', length: 3 }, 10))).toBe('bytes 7-9/10');
  });
});
