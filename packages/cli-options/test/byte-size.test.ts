import { VgwrdmaError } from '@vgwrdma/errors';
import { describe, expect, it } from 'vitest';
import { BYTE_SIZE_FORMS, ByteSizeError, formatByteSize, parseByteSize } from '../src/byte-size.js';

/** The error parseByteSize throws for `text`. */
function refusal(text: string, bounds?: { min?: number; max?: number }): ByteSizeError {
  try {
    parseByteSize(text, bounds);
  } catch (err) {
    expect(err).toBeInstanceOf(ByteSizeError);
    return err as ByteSizeError;
  }
  throw new Error(`'${text}' was accepted`);
}

describe('parseByteSize', () => {
  it.each([
    ['4096', 4096],
    ['10B', 10],
    ['1K', 1024],
    ['1k', 1024],
    ['2KiB', 2048],
    ['1KB', 1000],
    ['64M', 64 * 2 ** 20],
    ['64MiB', 64 * 2 ** 20],
    ['64mib', 64 * 2 ** 20],
    ['64MB', 64_000_000],
    ['1g', 2 ** 30],
    ['1GiB', 2 ** 30],
    ['2GB', 2e9],
    ['1T', 2 ** 40],
    ['1TiB', 2 ** 40],
    ['3TB', 3e12],
    ['1.5MiB', 1.5 * 2 ** 20],
    [' 8 MiB ', 8 * 2 ** 20],
  ])('%s = %d bytes', (text, bytes) => {
    expect(parseByteSize(text)).toBe(bytes);
  });

  it('refuses junk with a message that lists the accepted forms', () => {
    for (const bad of ['', 'MiB', '-1M', '64XB', '0x10', '1e6', '64 MiB extra']) {
      const e = refusal(bad);
      expect(e.code).toBe('VGW_ERR_INVALID_BYTE_SIZE');
      expect(e.text).toBe(bad);
      expect(e.message).toBe(`invalid size '${bad}': expected ${BYTE_SIZE_FORMS}`);
    }
  });

  it('refuses fractions of a byte and sizes past 2^53', () => {
    expect(refusal('1.5B').message).toBe("invalid size '1.5B': not a whole number of bytes");
    expect(refusal('9000000TB').message).toMatch(/not a whole number of bytes/);
  });

  it('applies the bounds, zero being refused by default', () => {
    expect(refusal('0').message).toBe("invalid size '0': must be at least 1 byte");
    expect(parseByteSize('0', { min: 0 })).toBe(0);
    expect(refusal('1KiB', { min: 4096 }).message).toBe(
      "invalid size '1KiB': must be at least 4096 bytes (4KiB)",
    );
    expect(parseByteSize('4KiB', { min: 4096 })).toBe(4096);
    expect(refusal('2GiB', { max: 2 ** 30 }).message).toBe(
      "invalid size '2GiB': must be at most 1073741824 bytes (1GiB)",
    );
  });

  it('is one of the VgwrdmaError family', () => {
    const e = refusal('junk');
    expect(e).toBeInstanceOf(VgwrdmaError);
    expect(e).toBeInstanceOf(Error);
    expect(e.name).toBe('ByteSizeError');
  });
});

describe('formatByteSize', () => {
  it('picks the largest binary unit that divides, else one decimal, else bytes', () => {
    expect([2 ** 40, 64 * 2 ** 20, 2 ** 30, 1536, 1000, 1].map(formatByteSize)).toEqual([
      '1TiB',
      '64MiB',
      '1GiB',
      '1.5KiB',
      '1000B',
      '1B',
    ]);
  });

  it('round-trips every whole binary size it prints', () => {
    for (const n of [1, 512, 4096, 3 * 2 ** 20, 7 * 2 ** 30, 2 ** 40])
      expect(parseByteSize(formatByteSize(n))).toBe(n);
  });
});
