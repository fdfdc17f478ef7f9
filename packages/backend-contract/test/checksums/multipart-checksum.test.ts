// What a multipart upload may name and what a Complete's stated checksum is checked against:
// the type rules per algorithm, the shape of a stated value (base64 of the digest size, `-N`),
// the checksum mode of a Complete, and the comparison with the computed value.
import { describe, expect, it } from 'vitest';
import {
  checkChecksumType,
  checkCompleteChecksum,
  checkCompleteChecksumType,
  checksumTypeAllowed,
  defaultChecksumType,
  parseCompleteChecksumValue,
} from '../../src/checksums/multipart-checksum.js';
import { S3Error } from '../../src/errors/s3-error.js';
import { CHECKSUM_ALGORITHMS } from '../../src/types/common.js';

function refusal(fn: () => unknown): { code: string; message: string } | undefined {
  try {
    fn();
    return undefined;
  } catch (err) {
    expect(err).toBeInstanceOf(S3Error);
    return { code: (err as S3Error).code, message: (err as S3Error).message };
  }
}

describe('checksum types per algorithm', () => {
  it('defaults CRC64NVME to FULL_OBJECT and the others to COMPOSITE', () => {
    expect(CHECKSUM_ALGORITHMS.map((a) => [a, defaultChecksumType(a)])).toEqual([
      ['CRC32', 'COMPOSITE'],
      ['CRC32C', 'COMPOSITE'],
      ['CRC64NVME', 'FULL_OBJECT'],
      ['SHA1', 'COMPOSITE'],
      ['SHA256', 'COMPOSITE'],
    ]);
  });

  it('allows FULL_OBJECT only for CRCs and COMPOSITE for all but CRC64NVME', () => {
    const allowed = CHECKSUM_ALGORITHMS.map((a) => [
      a,
      checksumTypeAllowed(a, 'FULL_OBJECT'),
      checksumTypeAllowed(a, 'COMPOSITE'),
    ]);
    expect(allowed).toEqual([
      ['CRC32', true, true],
      ['CRC32C', true, true],
      ['CRC64NVME', true, false],
      ['SHA1', false, true],
      ['SHA256', false, true],
    ]);
  });

  it('refuses a type the algorithm cannot have with the InvalidRequest S3 sends', () => {
    expect(refusal(() => checkChecksumType('SHA256', 'FULL_OBJECT'))).toEqual({
      code: 'InvalidRequest',
      message: 'The FULL_OBJECT checksum type cannot be used with the sha256 checksum algorithm.',
    });
    expect(refusal(() => checkChecksumType('CRC64NVME', 'COMPOSITE'))?.message).toBe(
      'The COMPOSITE checksum type cannot be used with the crc64nvme checksum algorithm.',
    );
    expect(refusal(() => checkChecksumType('CRC32', 'FULL_OBJECT'))).toBeUndefined();
    expect(refusal(() => checkChecksumType('SHA1', undefined))).toBeUndefined();
  });
});

describe('parseCompleteChecksumValue', () => {
  const crc32 = Buffer.from([1, 2, 3, 4]).toString('base64');
  const sha256 = Buffer.alloc(32, 7).toString('base64');

  it('takes the digest alone or with a part count', () => {
    expect(parseCompleteChecksumValue('CRC32', crc32)).toBe(crc32);
    expect(parseCompleteChecksumValue('CRC32', `${crc32}-2`)).toBe(`${crc32}-2`);
    expect(parseCompleteChecksumValue('SHA256', ` ${sha256}-10000 `)).toBe(`${sha256}-10000`);
  });

  it.each([
    ['CRC32', 'invalid_crc32'],
    ['CRC32', `${crc32}-`],
    ['CRC32', `${crc32}-0`],
    ['CRC32', `${crc32}-01`],
    ['CRC32', `${crc32}-10001`],
    ['CRC32', `${crc32}-2-3`],
    ['CRC32', `${crc32}--2`],
    ['CRC32', sha256],
    ['CRC32C', 'AQID'],
    ['SHA256', crc32],
    ['CRC64NVME', ''],
  ] as const)('refuses %s value %j naming the header', (algorithm, value) => {
    expect(refusal(() => parseCompleteChecksumValue(algorithm, value))).toEqual({
      code: 'InvalidRequest',
      message: `Value for x-amz-checksum-${algorithm.toLowerCase()} header is invalid.`,
    });
  });
});

describe('checkCompleteChecksumType', () => {
  it("passes the upload's own type or none", () => {
    expect(
      refusal(() => checkCompleteChecksumType({ algorithm: 'CRC32', type: 'FULL_OBJECT' }, 'FULL_OBJECT')),
    ).toBe(undefined);
    expect(refusal(() => checkCompleteChecksumType({ algorithm: 'SHA1' }, 'COMPOSITE'))).toBeUndefined();
    expect(refusal(() => checkCompleteChecksumType({}, undefined))).toBeUndefined();
  });

  it('refuses another mode, naming the one the upload was created with (null without a checksum)', () => {
    expect(
      refusal(() => checkCompleteChecksumType({ algorithm: 'CRC32', type: 'COMPOSITE' }, 'FULL_OBJECT')),
    ).toEqual({
      code: 'InvalidRequest',
      message:
        'The upload was created using the COMPOSITE checksum mode. The complete request must use the same checksum mode.',
    });
    expect(refusal(() => checkCompleteChecksumType({}, 'FULL_OBJECT'))?.message).toMatch(
      /^The upload was created using the null checksum mode\./,
    );
  });
});

describe('checkCompleteChecksum', () => {
  const upload = { algorithm: 'CRC32', type: 'COMPOSITE' } as const;

  it('passes a matching value, no value, and a value for another algorithm', () => {
    expect(
      refusal(() => checkCompleteChecksum(upload, { CRC32: 'AQIDBA==-2' }, 'AQIDBA==-2')),
    ).toBeUndefined();
    expect(refusal(() => checkCompleteChecksum(upload, undefined, 'AQIDBA==-2'))).toBeUndefined();
    expect(refusal(() => checkCompleteChecksum(upload, { SHA256: 'x' }, 'AQIDBA==-2'))).toBeUndefined();
  });

  it('ignores any value on an upload created without a checksum', () => {
    expect(
      refusal(() => checkCompleteChecksum({}, { CRC64NVME: 'AAAAAAAAAAA=' }, 'c9MSxfdfOaw=')),
    ).toBeUndefined();
  });

  it('refuses a different value with BadDigest naming the algorithm', () => {
    expect(refusal(() => checkCompleteChecksum(upload, { CRC32: 'AQIDBA==' }, 'AQIDBA==-2'))).toEqual({
      code: 'BadDigest',
      message: 'The CRC32 you specified did not match the calculated checksum.',
    });
  });
});
