import { randomFillSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { checksumHeader, crc32, crc32c, crcToBase64 } from './checksum.js';

// Reference CRC32C, bit at a time, for cross-checking the sliced kernel.
function crc32cBitwise(data: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of data) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0x82f63b78 : c >>> 1;
  }
  return ~c >>> 0;
}

describe('checksums', () => {
  it('CRC32C and CRC32 check values of "123456789"', () => {
    const v = new TextEncoder().encode('123456789');
    expect(crc32c(v)).toBe(0xe3069283);
    expect(crc32(v)).toBe(0xcbf43926);
  });

  it('the sliced CRC32C equals the bitwise one at every length and alignment, and chains', () => {
    const data = randomFillSync(new Uint8Array(1000));
    for (const [start, end] of [
      [0, 0],
      [0, 1],
      [3, 10],
      [1, 999],
      [0, 1000],
    ] as const) {
      expect(crc32c(data.subarray(start, end))).toBe(crc32cBitwise(data.subarray(start, end)));
    }
    expect(crc32c(data.subarray(500), crc32c(data.subarray(0, 500)))).toBe(crc32c(data));
  });

  it('S3 header values are base64 of the big-endian CRC', () => {
    expect(crcToBase64(0xe3069283)).toBe('4waSgw==');
    expect(checksumHeader('crc32c', new TextEncoder().encode('123456789'))).toEqual({
      header: 'x-amz-checksum-crc32c',
      value: '4waSgw==',
    });
    expect(checksumHeader('crc32', new Uint8Array(0)).value).toBe('AAAAAA==');
  });
});
