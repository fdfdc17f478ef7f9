// The checksum a CompleteMultipartUpload states (x-amz-checksum-<alg> via the SDK's Checksum*
// fields) against the built gateway on posix: it is the whole object's checksum as the upload's
// type computes it — `<base64 of the hash of the part checksums>-N` for COMPOSITE, the CRC of the
// data for FULL_OBJECT — and is accepted when it matches, BadDigest when it does not; a malformed
// value, a checksum type other than the upload's, or a type the algorithm cannot have is
// InvalidRequest, as S3 answers. Regression: every stated value used to be checked against the
// XML body and answered BadDigest.
import {
  type ChecksumType,
  type CompletedPart,
  CompleteMultipartUploadCommand,
  type CompleteMultipartUploadCommandInput,
  CreateMultipartUploadCommand,
  HeadObjectCommand,
  type S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { getChecksum } from '@vgwrdma/backend-contract';
import { expectS3Error, sceneTest } from '@vgwrdma/test-kit/scene';
import { describe, expect, it } from 'vitest';
import { type Algorithm, type ChecksumFields, FIELD, LOCAL } from './helpers/checksum-fields.js';
import { type ChecksumUpload, completeUpload, uploadParts } from './helpers/checksum-upload.js';

const Bucket = 'complete-sums';
const PART1 = Buffer.alloc(5 * 1024 * 1024, 'p');
const PART2 = Buffer.from('the second and last part');
const WHOLE = Buffer.concat([PART1, PART2]);

const test = sceneTest({ buckets: [Bucket] });

describe('CompleteMultipartUpload with a stated checksum', { timeout: 180_000 }, () => {
  let s3: S3Client;
  let n = 0;
  test.beforeAll(({ s3: root }) => {
    s3 = root;
  });

  const upload = (algorithm?: Algorithm, type?: ChecksumType) =>
    uploadParts(s3, Bucket, `obj-${n++}`, [PART1, PART2], algorithm, type);
  const complete = (u: ChecksumUpload, extra: Partial<CompleteMultipartUploadCommandInput> = {}) =>
    completeUpload(s3, u, extra);

  /** The composite value: the algorithm over the concatenated binary part checksums, then -N. */
  function composite(algorithm: Algorithm, sums: string[]): string {
    const raw = Buffer.concat(sums.map((s) => Buffer.from(s, 'base64')));
    const local = LOCAL[algorithm];
    const digest = local ? local(raw).toString('base64') : hashWithRegistry(algorithm, raw);
    return `${digest}-${sums.length}`;
  }

  /** CRC32C has no node:zlib twin: the registry hashes the part values the SDK computed. */
  function hashWithRegistry(algorithm: Algorithm, raw: Buffer): string {
    const h = getChecksum(algorithm).create();
    h.update(raw);
    return h.digest();
  }

  it.each(['CRC32', 'CRC32C', 'SHA1', 'SHA256'] as const)(
    'accepts the COMPOSITE %s value (-N) and answers it on Complete and HEAD',
    async (algorithm) => {
      const u = await upload(algorithm);
      const value = composite(algorithm, u.sums);
      const done = await complete(u, { [FIELD[algorithm]]: value });
      expect([(done as ChecksumFields)[FIELD[algorithm]], done.ChecksumType]).toEqual([value, 'COMPOSITE']);
      const head = await s3.send(new HeadObjectCommand({ Bucket, Key: u.Key, ChecksumMode: 'ENABLED' }));
      expect([(head as ChecksumFields)[FIELD[algorithm]], head.ContentLength]).toEqual([value, WHOLE.length]);
    },
  );

  it('refuses the full-object CRC32 on a COMPOSITE upload (BadDigest): it is not the composite value', async () => {
    const u = await upload('CRC32', 'COMPOSITE');
    const full = LOCAL.CRC32?.(WHOLE).toString('base64');
    const err = await expectS3Error(complete(u, { ChecksumCRC32: full }), 'BadDigest');
    expect(err.message).toBe('The CRC32 you specified did not match the calculated checksum.');
    // The refusal left the upload in place: the right value completes it.
    const done = await complete(u, { ChecksumCRC32: composite('CRC32', u.sums) });
    expect(done.ChecksumType).toBe('COMPOSITE');
  });

  it('refuses a composite value with the wrong part count (BadDigest)', async () => {
    const u = await upload('SHA256');
    const wrong = composite('SHA256', u.sums).replace(/-2$/, '-3');
    await expectS3Error(complete(u, { ChecksumSHA256: wrong }), 'BadDigest');
  });

  it.each(['CRC32', 'CRC32C', 'CRC64NVME'] as const)(
    'accepts the FULL_OBJECT %s of the whole data, refuses another (BadDigest)',
    async (algorithm) => {
      const u = await upload(algorithm, 'FULL_OBJECT');
      // CRC32 is recomputed with node:zlib; CRC32C and CRC64NVME with the registry, whose part
      // values the gateway has just checked against the ones the SDK sent.
      const local = LOCAL[algorithm];
      const value = local ? local(WHOLE).toString('base64') : hashWithRegistry(algorithm, WHOLE);
      const other = local ? local(PART1).toString('base64') : hashWithRegistry(algorithm, PART1);
      await expectS3Error(
        complete(u, { [FIELD[algorithm]]: other, ChecksumType: 'FULL_OBJECT' }),
        'BadDigest',
      );
      const done = await complete(u, { [FIELD[algorithm]]: value, ChecksumType: 'FULL_OBJECT' });
      expect([(done as ChecksumFields)[FIELD[algorithm]], done.ChecksumType]).toEqual([value, 'FULL_OBJECT']);
    },
  );

  it.each([
    ['CRC32', 'not base64!'],
    ['CRC32', 'AAAAAAAA'],
    ['CRC32C', 'AAAAAA==-x'],
    ['SHA1', `${Buffer.alloc(20).toString('base64')}--2`],
    ['SHA256', `${Buffer.alloc(32).toString('base64')}-0`],
  ] as const)(
    'refuses a malformed %s value %j (InvalidRequest naming the header)',
    async (algorithm, value) => {
      const u = await upload(algorithm);
      const err = await expectS3Error(complete(u, { [FIELD[algorithm]]: value }), 'InvalidRequest');
      expect(err.message).toBe(`Value for x-amz-checksum-${algorithm.toLowerCase()} header is invalid.`);
    },
  );

  it("refuses a Complete whose checksum type is not the upload's (InvalidRequest)", async () => {
    const u = await upload('CRC32', 'FULL_OBJECT');
    const err = await expectS3Error(complete(u, { ChecksumType: 'COMPOSITE' }), 'InvalidRequest');
    expect(err.message).toBe(
      'The upload was created using the FULL_OBJECT checksum mode. The complete request must use the same checksum mode.',
    );
    const plain = await upload();
    const none = await expectS3Error(complete(plain, { ChecksumType: 'FULL_OBJECT' }), 'InvalidRequest');
    expect(none.message).toMatch(/created using the null checksum mode/);
  });

  it('ignores a stated checksum on an upload created without one, and answers its CRC64NVME', async () => {
    const u = await upload();
    const done = await complete(u, { ChecksumCRC64NVME: Buffer.alloc(8).toString('base64') });
    expect(done.ChecksumType).toBe('FULL_OBJECT');
    expect(done.ChecksumCRC64NVME).toMatch(/^[A-Za-z0-9+/]{11}=$/);
    expect(done.ChecksumCRC64NVME).not.toBe(Buffer.alloc(8).toString('base64'));
  });

  it.each([
    [
      'SHA256',
      'FULL_OBJECT',
      'The FULL_OBJECT checksum type cannot be used with the sha256 checksum algorithm.',
    ],
    ['SHA1', 'FULL_OBJECT', 'The FULL_OBJECT checksum type cannot be used with the sha1 checksum algorithm.'],
    [
      'CRC64NVME',
      'COMPOSITE',
      'The COMPOSITE checksum type cannot be used with the crc64nvme checksum algorithm.',
    ],
  ] as const)(
    'CreateMultipartUpload refuses %s with %s (InvalidRequest)',
    async (algorithm, type, message) => {
      const err = await expectS3Error(
        s3.send(
          new CreateMultipartUploadCommand({
            Bucket,
            Key: 'never',
            ChecksumAlgorithm: algorithm,
            ChecksumType: type,
          }),
        ),
        'InvalidRequest',
      );
      expect(err.message).toBe(message);
    },
  );

  it('wants parts numbered 1..N when they carry a CRC32 checksum (InvalidPartOrder)', async () => {
    const Key = `gap-${n++}`;
    const { UploadId } = await s3.send(
      new CreateMultipartUploadCommand({ Bucket, Key, ChecksumAlgorithm: 'CRC32' }),
    );
    const parts: CompletedPart[] = [];
    for (const [PartNumber, Body] of [
      [1, PART1],
      [3, PART2],
    ] as const) {
      const up = await s3.send(
        new UploadPartCommand({ Bucket, Key, UploadId, PartNumber, Body, ChecksumAlgorithm: 'CRC32' }),
      );
      parts.push({ PartNumber, ETag: up.ETag, ChecksumCRC32: up.ChecksumCRC32 });
    }
    await expectS3Error(
      s3.send(
        new CompleteMultipartUploadCommand({ Bucket, Key, UploadId, MultipartUpload: { Parts: parts } }),
      ),
      'InvalidPartOrder',
    );
  });
});
