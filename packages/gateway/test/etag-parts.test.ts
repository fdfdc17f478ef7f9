// The parts ETag mode end to end through the SDK: a gateway over a posix tree opened with
// etagMode parts gives a body of several parts S3's multipart-form ETag (checked against a
// reference computed here), answers partNumber GETs and GetObjectAttributes by those parts, keeps
// the whole object's CRC64NVME (which the SDK checks against the bytes it reads), computes the
// real MD5 when the client sends Content-MD5, and leaves small objects and multipart uploads as
// they are. A second gateway in md5 mode over the same tree serves what the first wrote alike.
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CompleteMultipartUploadCommand,
  CreateBucketCommand,
  CreateMultipartUploadCommand,
  GetObjectAttributesCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { PosixBackend } from '@vgwrdma/backend-posix';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type TestGateway } from './support/harness.js';

const MiB = 1024 * 1024;
const PART = 5 * MiB;
const Bucket = 'etag-parts';
const md5 = (b: Uint8Array) => createHash('md5').update(b).digest();

function partsEtag(body: Buffer, partSize: number): string {
  const sums: Buffer[] = [];
  for (let at = 0; at < body.length; at += partSize) sums.push(md5(body.subarray(at, at + partSize)));
  return `"${md5(Buffer.concat(sums)).toString('hex')}-${sums.length}"`;
}

async function bytesOf(out: { Body?: { transformToByteArray(): Promise<Uint8Array> } }): Promise<Buffer> {
  return Buffer.from((await out.Body?.transformToByteArray()) ?? []);
}

describe('ETag mode parts (posix backend)', () => {
  let dir: string;
  let parts: TestGateway;
  let plain: TestGateway;
  const body = randomBytes(2 * PART + 123_457); // three parts, the last short

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'etag-parts-'));
    const root = join(dir, 'root');
    parts = await startGateway(
      await PosixBackend.open({ root, etagMode: { kind: 'parts', partSize: PART } }),
    );
    plain = await startGateway(await PosixBackend.open({ root }));
    await parts.client.send(new CreateBucketCommand({ Bucket }));
  });
  afterAll(async () => {
    await parts?.close();
    await plain?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('gives a body of several parts the multipart-form ETag and keeps its CRC64NVME', async () => {
    const put = await parts.client.send(
      new PutObjectCommand({ Bucket, Key: 'big', Body: body, ChecksumAlgorithm: 'CRC64NVME' }),
    );
    expect(put.ETag).toBe(partsEtag(body, PART));
    expect(put.ETag?.endsWith('-3"')).toBe(true);
    // ChecksumMode: the SDK recomputes the CRC64NVME over the bytes it reads and fails on a mismatch.
    for (const gw of [parts, plain]) {
      const got = await gw.client.send(new GetObjectCommand({ Bucket, Key: 'big', ChecksumMode: 'ENABLED' }));
      expect(got.ETag).toBe(put.ETag);
      expect(got.ChecksumCRC64NVME).toBe(put.ChecksumCRC64NVME);
      expect((await bytesOf(got)).equals(body)).toBe(true);
    }
  });

  it('answers partNumber GETs and GetObjectAttributes by the parts, in either mode', async () => {
    for (const gw of [parts, plain]) {
      const head = await gw.client.send(new HeadObjectCommand({ Bucket, Key: 'big', PartNumber: 2 }));
      expect(head.PartsCount).toBe(3);
      expect(head.ContentLength).toBe(PART);
      const third = await gw.client.send(new GetObjectCommand({ Bucket, Key: 'big', PartNumber: 3 }));
      expect(third.ContentRange).toBe(`bytes ${2 * PART}-${body.length - 1}/${body.length}`);
      expect((await bytesOf(third)).equals(body.subarray(2 * PART))).toBe(true);
      const attrs = await gw.client.send(
        new GetObjectAttributesCommand({
          Bucket,
          Key: 'big',
          ObjectAttributes: ['ETag', 'ObjectParts', 'ObjectSize'],
        }),
      );
      expect(`"${attrs.ETag}"`).toBe(partsEtag(body, PART));
      expect(attrs.ObjectSize).toBe(body.length);
      expect(attrs.ObjectParts?.TotalPartsCount).toBe(3);
    }
  });

  it('computes the real MD5 when the client sends Content-MD5', async () => {
    const ContentMD5 = md5(body).toString('base64');
    const put = await parts.client.send(
      new PutObjectCommand({ Bucket, Key: 'with-md5', Body: body, ContentMD5 }),
    );
    expect(put.ETag).toBe(`"${md5(body).toString('hex')}"`);
    const head = await parts.client.send(new HeadObjectCommand({ Bucket, Key: 'with-md5', PartNumber: 1 }));
    expect(head.PartsCount).toBeUndefined();
    // A wrong Content-MD5 is still BadDigest, and stores nothing.
    const wrong = md5(Buffer.from('other')).toString('base64');
    await expect(
      parts.client.send(new PutObjectCommand({ Bucket, Key: 'bad-md5', Body: body, ContentMD5: wrong })),
    ).rejects.toMatchObject({ name: 'BadDigest' });
    await expect(parts.client.send(new HeadObjectCommand({ Bucket, Key: 'bad-md5' }))).rejects.toMatchObject({
      name: 'NotFound',
    });
  });

  it('leaves a body of one part with its MD5, and multipart uploads as they are', async () => {
    const small = randomBytes(PART);
    const put = await parts.client.send(new PutObjectCommand({ Bucket, Key: 'one-part', Body: small }));
    expect(put.ETag).toBe(`"${md5(small).toString('hex')}"`);

    const { UploadId } = await parts.client.send(new CreateMultipartUploadCommand({ Bucket, Key: 'mpu' }));
    const pieces = [body.subarray(0, 6 * MiB), body.subarray(6 * MiB)];
    const etags: string[] = [];
    for (const [i, Body] of pieces.entries()) {
      const r = await parts.client.send(
        new UploadPartCommand({ Bucket, Key: 'mpu', UploadId, PartNumber: i + 1, Body }),
      );
      expect(r.ETag).toBe(`"${md5(Body).toString('hex')}"`);
      etags.push(r.ETag as string);
    }
    const done = await parts.client.send(
      new CompleteMultipartUploadCommand({
        Bucket,
        Key: 'mpu',
        UploadId,
        MultipartUpload: { Parts: etags.map((ETag, i) => ({ ETag, PartNumber: i + 1 })) },
      }),
    );
    const sums = Buffer.concat(pieces.map(md5));
    expect(done.ETag).toBe(`"${md5(sums).toString('hex')}-2"`);
  });
});
