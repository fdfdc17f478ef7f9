import { randomFillSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CHECKSUMS, checksumHeader } from '../src/checksum.js';
import { crc32Base64, crc32cBase64 } from './crc-oracle.js';

describe('checksums', () => {
  it('CRC32C and CRC32 check values of "123456789", as S3 header values', () => {
    const v = new TextEncoder().encode('123456789');
    expect(checksumHeader('crc32c', v)).toEqual({ header: 'x-amz-checksum-crc32c', value: '4waSgw==' });
    expect(checksumHeader('crc32', v)).toEqual({ header: 'x-amz-checksum-crc32', value: 'y/Q5Jg==' });
    expect(checksumHeader('crc32', new Uint8Array(0)).value).toBe('AAAAAA==');
    expect(CHECKSUMS.crc32c.header).toBe('x-amz-checksum-crc32c');
  });

  it('equal the AWS SDK CRC32C and zlib CRC32 at every length and alignment', () => {
    const data = randomFillSync(new Uint8Array(70_000));
    for (const [start, end] of [
      [0, 0],
      [0, 1],
      [3, 10],
      [1, 999],
      [7, 70_000],
    ] as const) {
      const view = data.subarray(start, end);
      expect(checksumHeader('crc32c', view).value).toBe(crc32cBase64(view));
      expect(checksumHeader('crc32', view).value).toBe(crc32Base64(view));
    }
  });
});
