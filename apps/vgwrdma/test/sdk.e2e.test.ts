// The built gateway driven by @aws-sdk/client-s3 (v3, default settings): bucket and object
// round trips, ranges, copies, deletes, the SDK's default aws-chunked upload with a CRC32
// trailer, presigned URLs, and the error codes clients rely on.
import { Readable } from 'node:stream';
import { crc32 } from 'node:zlib';
import {
  CopyObjectCommand,
  CreateBucketCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListBucketsCommand,
  ListObjectsV2Command,
  PutObjectCommand,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { ROOT_CREDENTIALS, s3Client } from '@vgwrdma/test-kit';
import { expectS3Error, sceneRef, sceneTest } from '@vgwrdma/test-kit/scene';
import { describe, expect, it } from 'vitest';
import { md5Hex } from './helpers/files.js';

const bucket = 'sdk-bucket';
const test = sceneTest({ buckets: [bucket] });
const the = sceneRef(test);

async function getText(
  key: string,
  range?: string,
): Promise<{ text: string; contentRange?: string | undefined }> {
  const out = await the.s3.send(
    new GetObjectCommand({ Bucket: bucket, Key: key, ...(range ? { Range: range } : {}) }),
  );
  return { text: await out.Body!.transformToString(), contentRange: out.ContentRange };
}

describe('object round trips', () => {
  it('lists the bucket it made', async () => {
    const out = await the.s3.send(new ListBucketsCommand({}));
    expect(out.Buckets?.map((b) => b.Name)).toContain(bucket);
  });

  it('puts, heads, gets and lists objects', async () => {
    const body = 'hello from the aws sdk\n';
    const put = await the.s3.send(
      new PutObjectCommand({ Bucket: bucket, Key: 'dir/hello.txt', Body: body, ContentType: 'text/plain' }),
    );
    expect(put.ETag).toBe(`"${md5Hex(body)}"`);
    const head = await the.s3.send(new HeadObjectCommand({ Bucket: bucket, Key: 'dir/hello.txt' }));
    expect(head.ContentLength).toBe(body.length);
    expect(head.ContentType).toBe('text/plain');
    expect(head.ETag).toBe(put.ETag);
    expect((await getText('dir/hello.txt')).text).toBe(body);
    const list = await the.s3.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: 'dir/' }));
    expect(list.Contents?.map((o) => [o.Key, o.Size])).toEqual([['dir/hello.txt', body.length]]);
    const delimited = await the.s3.send(new ListObjectsV2Command({ Bucket: bucket, Delimiter: '/' }));
    expect(delimited.CommonPrefixes?.map((p) => p.Prefix)).toContain('dir/');
  });

  it('serves ranged GETs', async () => {
    await the.s3.send(new PutObjectCommand({ Bucket: bucket, Key: 'digits', Body: '0123456789' }));
    expect(await getText('digits', 'bytes=2-5')).toEqual({ text: '2345', contentRange: 'bytes 2-5/10' });
    expect(await getText('digits', 'bytes=-3')).toEqual({ text: '789', contentRange: 'bytes 7-9/10' });
    await expectS3Error(getText('digits', 'bytes=20-30'), 'InvalidRange');
  });

  it('copies an object', async () => {
    await the.s3.send(new PutObjectCommand({ Bucket: bucket, Key: 'copy-src', Body: 'copied bytes' }));
    await the.s3.send(
      new CopyObjectCommand({ Bucket: bucket, Key: 'copy-dst', CopySource: `${bucket}/copy-src` }),
    );
    expect((await getText('copy-dst')).text).toBe('copied bytes');
  });

  it('deletes one object and many', async () => {
    for (const key of ['del/a', 'del/b', 'del/c']) {
      await the.s3.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: key }));
    }
    await the.s3.send(new DeleteObjectCommand({ Bucket: bucket, Key: 'del/a' }));
    await expectS3Error(the.s3.send(new HeadObjectCommand({ Bucket: bucket, Key: 'del/a' })), 'NotFound');
    const multi = await the.s3.send(
      new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: [{ Key: 'del/b' }, { Key: 'del/c' }] } }),
    );
    expect(multi.Deleted?.map((d) => d.Key).sort()).toEqual(['del/b', 'del/c']);
    const list = await the.s3.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: 'del/' }));
    expect(list.KeyCount).toBe(0);
  });
});

describe('the SDK default upload: aws-chunked with a CRC32 trailer', () => {
  it('is accepted, and the stored checksum matches the data', async () => {
    const data = Buffer.alloc(300_000);
    for (let i = 0; i < data.length; i++) data[i] = (i * 7 + 3) & 0xff;
    const sent: Record<string, string> = {};
    const command = new PutObjectCommand({
      Bucket: bucket,
      Key: 'chunked.bin',
      Body: Readable.from([data]),
      ContentLength: data.length,
    });
    command.middlewareStack.add(
      (next) => async (args) => {
        const request = args.request as { headers: Record<string, string> };
        Object.assign(sent, request.headers);
        return next(args);
      },
      { step: 'finalizeRequest', priority: 'low' },
    );
    const put = await the.s3.send(command);
    expect(sent['x-amz-content-sha256']).toBe('STREAMING-UNSIGNED-PAYLOAD-TRAILER');
    expect(sent['x-amz-trailer']).toBe('x-amz-checksum-crc32');
    const expectedCrc = Buffer.alloc(4);
    expectedCrc.writeUInt32BE(crc32(data));
    expect(put.ChecksumCRC32).toBe(expectedCrc.toString('base64'));
    expect(put.ETag).toBe(`"${md5Hex(data)}"`);

    const got = await the.s3.send(
      new GetObjectCommand({ Bucket: bucket, Key: 'chunked.bin', ChecksumMode: 'ENABLED' }),
    );
    expect(Buffer.from(await got.Body!.transformToByteArray()).equals(data)).toBe(true);
    expect(got.ChecksumCRC32).toBe(expectedCrc.toString('base64'));
  });
});

describe('presigned URLs', () => {
  it('PUT then GET through plain fetch', async () => {
    const putUrl = await getSignedUrl(
      the.s3,
      new PutObjectCommand({ Bucket: bucket, Key: 'presigned.txt' }),
      { expiresIn: 300 },
    );
    const put = await fetch(putUrl, { method: 'PUT', body: 'sent by fetch' });
    expect(put.status).toBe(200);
    const getUrl = await getSignedUrl(
      the.s3,
      new GetObjectCommand({ Bucket: bucket, Key: 'presigned.txt' }),
      { expiresIn: 300 },
    );
    const get = await fetch(getUrl);
    expect(get.status).toBe(200);
    expect(await get.text()).toBe('sent by fetch');
  });

  it('refuses an expired URL with AccessDenied', async () => {
    const url = await getSignedUrl(the.s3, new GetObjectCommand({ Bucket: bucket, Key: 'presigned.txt' }), {
      expiresIn: 60,
      signingDate: new Date(Date.now() - 60 * 60 * 1000),
    });
    const res = await fetch(url);
    expect(res.status).toBe(403);
    expect(await res.text()).toContain('<Code>AccessDenied</Code>');
  });

  it('refuses a URL whose signature was tampered with', async () => {
    const url = new URL(
      await getSignedUrl(the.s3, new GetObjectCommand({ Bucket: bucket, Key: 'presigned.txt' })),
    );
    url.searchParams.set('X-Amz-Signature', '0'.repeat(64));
    const res = await fetch(url);
    expect(res.status).toBe(403);
    expect(await res.text()).toContain('<Code>SignatureDoesNotMatch</Code>');
  });
});

describe('errors', () => {
  it('SignatureDoesNotMatch for a wrong secret', async () => {
    const wrong = s3Client(the.gw.url, { access: ROOT_CREDENTIALS.access, secret: 'not-the-secret' });
    await expectS3Error(wrong.send(new ListBucketsCommand({})), 'SignatureDoesNotMatch');
    wrong.destroy();
  });

  it('InvalidAccessKeyId for an unknown access key', async () => {
    const unknown = s3Client(the.gw.url, { access: 'nobody', secret: 'x' });
    await expectS3Error(unknown.send(new ListBucketsCommand({})), 'InvalidAccessKeyId');
    unknown.destroy();
  });

  it('InvalidBucketName for a bad bucket name', async () => {
    await expectS3Error(
      the.s3.send(new CreateBucketCommand({ Bucket: 'Bad_Bucket_Name' })),
      'InvalidBucketName',
    );
  });

  it('KeyTooLongError for a 1025-byte key, while 1024 bytes is fine', async () => {
    // Path components stay under NAME_MAX (255); only the whole key is long.
    const key1024 = `${Array(5).fill('a'.repeat(200)).join('/')}/${'b'.repeat(19)}`;
    expect(Buffer.byteLength(key1024)).toBe(1024);
    await expectS3Error(
      the.s3.send(new PutObjectCommand({ Bucket: bucket, Key: `${key1024}c`, Body: 'x' })),
      'KeyTooLongError',
    );
    await the.s3.send(new PutObjectCommand({ Bucket: bucket, Key: key1024, Body: 'x' }));
    expect((await getText(key1024)).text).toBe('x');
  });

  it('NoSuchKey and NoSuchBucket', async () => {
    await expectS3Error(getText('missing-key'), 'NoSuchKey');
    await expectS3Error(the.s3.send(new ListObjectsV2Command({ Bucket: 'no-such-bucket' })), 'NoSuchBucket');
  });
});
