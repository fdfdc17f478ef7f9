// Checksums on the built gateway with the SDK: all five algorithms (CRC32, CRC32C, CRC64NVME,
// SHA1, SHA256) on single PUTs, FULL_OBJECT and COMPOSITE multipart uploads, read back with
// checksum mode on GET and HEAD; the values are recomputed here where node:crypto/zlib can.
import {
  type ChecksumType,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { expectS3Error, sceneTest } from '@vgwrdma/test-kit/scene';
import { describe, expect, it } from 'vitest';
import { ALGORITHMS, type Algorithm, type ChecksumFields, FIELD, LOCAL } from './helpers/checksum-fields.js';
import { completeUpload, uploadParts } from './helpers/checksum-upload.js';

const Bucket = 'sums';

const PART1 = Buffer.alloc(5 * 1024 * 1024, 'a');
const PART2 = Buffer.from('and the last part, short');

const test = sceneTest({ buckets: [Bucket] });

describe('vgwrdma checksums', { timeout: 120_000 }, () => {
  let s3: S3Client;
  test.beforeAll(({ s3: root }) => {
    s3 = root;
  });

  /** GET and HEAD with checksum mode; the SDK also validates the GET body against the value. */
  async function readBack(Key: string): Promise<{ get: ChecksumFields; head: ChecksumFields; body: Buffer }> {
    const got = await s3.send(new GetObjectCommand({ Bucket, Key, ChecksumMode: 'ENABLED' }));
    const body = Buffer.from((await got.Body?.transformToByteArray()) ?? []);
    const head = await s3.send(new HeadObjectCommand({ Bucket, Key, ChecksumMode: 'ENABLED' }));
    return { get: got as ChecksumFields, head: head as ChecksumFields, body };
  }

  it.each(ALGORITHMS)('stores and returns %s on a single PUT', async (algorithm) => {
    const Key = `single-${algorithm}`;
    const Body = Buffer.from(`payload checked by ${algorithm}`);
    const put = await s3.send(new PutObjectCommand({ Bucket, Key, Body, ChecksumAlgorithm: algorithm }));
    const field = FIELD[algorithm];
    const value = (put as ChecksumFields)[field];
    expect(value).toBeTruthy();
    const local = LOCAL[algorithm];
    if (local) expect(value).toBe(local(Body).toString('base64'));
    const { get, head, body } = await readBack(Key);
    expect([get[field], head[field], head.ChecksumType]).toEqual([value, value, 'FULL_OBJECT']);
    expect(body.equals(Body)).toBe(true);
  });

  it('refuses a body that does not match the checksum it names', async () => {
    const wrong = LOCAL.SHA256?.(Buffer.from('something else')).toString('base64');
    await expectS3Error(
      s3.send(new PutObjectCommand({ Bucket, Key: 'bad', Body: 'payload', ChecksumSHA256: wrong })),
      'BadDigest',
    );
  });

  async function multipart(Key: string, algorithm: Algorithm, type: ChecksumType) {
    return completeUpload(s3, await uploadParts(s3, Bucket, Key, [PART1, PART2], algorithm, type));
  }

  it.each(['CRC32', 'CRC32C', 'CRC64NVME'] as const)(
    'keeps a FULL_OBJECT %s over a multipart upload',
    async (algorithm) => {
      const Key = `full-${algorithm}`;
      const done = await multipart(Key, algorithm, 'FULL_OBJECT');
      const field = FIELD[algorithm];
      const value = (done as ChecksumFields)[field];
      const local = LOCAL[algorithm];
      if (local) expect(value).toBe(local(Buffer.concat([PART1, PART2])).toString('base64'));
      const { get, head, body } = await readBack(Key);
      expect([get[field], head[field], head.ChecksumType]).toEqual([value, value, 'FULL_OBJECT']);
      expect(body.equals(Buffer.concat([PART1, PART2]))).toBe(true);
    },
  );

  it.each(['SHA1', 'SHA256'] as const)(
    'keeps a COMPOSITE %s (checksum of part checksums, -2)',
    async (algorithm) => {
      const Key = `composite-${algorithm}`;
      const done = await multipart(Key, algorithm, 'COMPOSITE');
      const field = FIELD[algorithm];
      const hash = LOCAL[algorithm] as (data: Buffer) => Buffer;
      const expected = `${hash(Buffer.concat([hash(PART1), hash(PART2)])).toString('base64')}-2`;
      expect((done as ChecksumFields)[field]).toBe(expected);
      // HEAD answers the whole object's checksum; a GET of the whole object does not validate a
      // composite value (the SDK skips '-N' values), but must still carry it.
      const head = await s3.send(new HeadObjectCommand({ Bucket, Key, ChecksumMode: 'ENABLED' }));
      expect([(head as ChecksumFields)[field], head.ChecksumType]).toEqual([expected, 'COMPOSITE']);
      const whole = await s3.send(new GetObjectCommand({ Bucket, Key, ChecksumMode: 'ENABLED' }));
      expect((whole as ChecksumFields)[field]).toBe(expected);
      expect(Buffer.from((await whole.Body?.transformToByteArray()) ?? []).length).toBe(
        PART1.length + PART2.length,
      );
      const part = await s3.send(
        new GetObjectCommand({ Bucket, Key, PartNumber: 2, ChecksumMode: 'ENABLED' }),
      );
      expect(Buffer.from((await part.Body?.transformToByteArray()) ?? []).equals(PART2)).toBe(true);
    },
  );
});
