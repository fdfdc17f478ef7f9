// The gateway driven by the real @aws-sdk/client-s3 over a backend: object data, metadata,
// ranges, conditionals, copies, tagging and attributes.
import {
  CopyObjectCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectAttributesCommand,
  GetObjectCommand,
  GetObjectTaggingCommand,
  HeadObjectCommand,
  PutObjectCommand,
  PutObjectTaggingCommand,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bucketGateway, type MadeBackend } from './support/bucket-gateway.js';
import type { TestGateway } from './support/harness.js';

export function objectSuite(name: string, makeBackend: () => Promise<MadeBackend>) {
  describe(`objects over the SDK (${name})`, () => {
    let gw: TestGateway;
    const Bucket = 'sdk-objects';

    beforeAll(async () => {
      gw = await bucketGateway(await makeBackend(), Bucket);
    });
    afterAll(async () => gw.close());

    it('stores and returns metadata, content headers and tags', async () => {
      await gw.client.send(
        new PutObjectCommand({
          Bucket,
          Key: 'meta/obj.txt',
          Body: 'hello world',
          ContentType: 'text/plain',
          ContentDisposition: 'attachment; filename="x.txt"',
          CacheControl: 'no-cache',
          Metadata: { colour: 'blue', 'two-words': 'a b' },
          Tagging: 'k1=v1&k%202=v%202',
        }),
      );
      const head = await gw.client.send(new HeadObjectCommand({ Bucket, Key: 'meta/obj.txt' }));
      expect(head.ContentLength).toBe(11);
      expect(head.ContentType).toBe('text/plain');
      expect(head.ContentDisposition).toBe('attachment; filename="x.txt"');
      expect(head.CacheControl).toBe('no-cache');
      expect(head.Metadata).toEqual({ colour: 'blue', 'two-words': 'a b' });
      expect(head.ETag).toBe('"5eb63bbbe01eeed093cb22bb8f5acdc3"');
      expect(head.LastModified).toBeInstanceOf(Date);
      const tags = await gw.client.send(new GetObjectTaggingCommand({ Bucket, Key: 'meta/obj.txt' }));
      expect(tags.TagSet).toEqual(
        expect.arrayContaining([
          { Key: 'k1', Value: 'v1' },
          { Key: 'k 2', Value: 'v 2' },
        ]),
      );
    });

    it('verifies the CRC32 trailer of the SDK default aws-chunked upload and returns it with checksum mode', async () => {
      const put = await gw.client.send(
        new PutObjectCommand({ Bucket, Key: 'crc', Body: 'checksummed body' }),
      );
      expect(put.ChecksumCRC32).toBeDefined();
      const got = await gw.client.send(new GetObjectCommand({ Bucket, Key: 'crc', ChecksumMode: 'ENABLED' }));
      expect(await got.Body?.transformToString()).toBe('checksummed body');
      expect(got.ChecksumCRC32).toBe(put.ChecksumCRC32);
    });

    it('serves ranges with 206 and Content-Range', async () => {
      await gw.client.send(new PutObjectCommand({ Bucket, Key: 'range', Body: '0123456789' }));
      const mid = await gw.client.send(new GetObjectCommand({ Bucket, Key: 'range', Range: 'bytes=2-5' }));
      expect(await mid.Body?.transformToString()).toBe('2345');
      expect(mid.ContentRange).toBe('bytes 2-5/10');
      expect(mid.ContentLength).toBe(4);
      const suffix = await gw.client.send(new GetObjectCommand({ Bucket, Key: 'range', Range: 'bytes=-3' }));
      expect(await suffix.Body?.transformToString()).toBe('789');
      const err = await gw.client
        .send(new GetObjectCommand({ Bucket, Key: 'range', Range: 'bytes=20-' }))
        .catch((e) => e);
      expect(err).toBeInstanceOf(S3ServiceException);
      expect((err as S3ServiceException).name).toBe('InvalidRange');
      expect((err as S3ServiceException).$metadata.httpStatusCode).toBe(416);
    });

    it('answers conditional GETs with 304 and 412', async () => {
      const put = await gw.client.send(new PutObjectCommand({ Bucket, Key: 'cond', Body: 'x' }));
      const ok = await gw.client.send(new GetObjectCommand({ Bucket, Key: 'cond', IfMatch: put.ETag }));
      expect(await ok.Body?.transformToString()).toBe('x');
      const nm = await gw.client
        .send(new GetObjectCommand({ Bucket, Key: 'cond', IfNoneMatch: put.ETag }))
        .catch((e) => e);
      expect((nm as S3ServiceException).$metadata.httpStatusCode).toBe(304);
      const pf = await gw.client
        .send(new GetObjectCommand({ Bucket, Key: 'cond', IfMatch: '"nope"' }))
        .catch((e) => e);
      expect((pf as S3ServiceException).name).toBe('PreconditionFailed');
      expect((pf as S3ServiceException).$metadata.httpStatusCode).toBe(412);
    });

    it('copies objects, keeping or replacing metadata', async () => {
      const src = await gw.client.send(
        new PutObjectCommand({ Bucket, Key: 'src key+&', Body: 'copy me', Metadata: { a: '1' } }),
      );
      const kept = await gw.client.send(
        new CopyObjectCommand({
          Bucket,
          Key: 'dst1',
          CopySource: `${Bucket}/${encodeURIComponent('src key+&')}`,
        }),
      );
      expect(kept.CopyObjectResult?.ETag).toBe(src.ETag);
      expect(kept.CopyObjectResult?.LastModified).toBeInstanceOf(Date);
      const h1 = await gw.client.send(new HeadObjectCommand({ Bucket, Key: 'dst1' }));
      expect(h1.Metadata).toEqual({ a: '1' });
      await gw.client.send(
        new CopyObjectCommand({
          Bucket,
          Key: 'dst2',
          CopySource: `${Bucket}/${encodeURIComponent('src key+&')}`,
          MetadataDirective: 'REPLACE',
          Metadata: { b: '2' },
        }),
      );
      const h2 = await gw.client.send(new HeadObjectCommand({ Bucket, Key: 'dst2' }));
      expect(h2.Metadata).toEqual({ b: '2' });
      const body = await gw.client.send(new GetObjectCommand({ Bucket, Key: 'dst2' }));
      expect(await body.Body?.transformToString()).toBe('copy me');
      const fail = await gw.client
        .send(
          new CopyObjectCommand({
            Bucket,
            Key: 'dst3',
            CopySource: `${Bucket}/dst1`,
            CopySourceIfMatch: '"other"',
          }),
        )
        .catch((e) => e);
      expect((fail as S3ServiceException).name).toBe('PreconditionFailed');
    });

    it('refuses to copy an object onto itself without REPLACE', async () => {
      const err = await gw.client
        .send(new CopyObjectCommand({ Bucket, Key: 'dst1', CopySource: `${Bucket}/dst1` }))
        .catch((e) => e);
      expect((err as S3ServiceException).name).toBe('InvalidRequest');
    });

    it('deletes one object and many objects', async () => {
      await gw.client.send(new PutObjectCommand({ Bucket, Key: 'del/1', Body: '1' }));
      await gw.client.send(new PutObjectCommand({ Bucket, Key: 'del/2', Body: '2' }));
      await gw.client.send(new PutObjectCommand({ Bucket, Key: 'del/3', Body: '3' }));
      await gw.client.send(new DeleteObjectCommand({ Bucket, Key: 'del/1' }));
      const out = await gw.client.send(
        new DeleteObjectsCommand({ Bucket, Delete: { Objects: [{ Key: 'del/2' }, { Key: 'del/3' }] } }),
      );
      expect(out.Deleted?.map((d) => d.Key).sort()).toEqual(['del/2', 'del/3']);
      for (const Key of ['del/1', 'del/2', 'del/3']) {
        const e = await gw.client.send(new HeadObjectCommand({ Bucket, Key })).catch((x) => x);
        expect((e as S3ServiceException).$metadata.httpStatusCode).toBe(404);
      }
    });

    it('replaces object tags and reports the tag count', async () => {
      await gw.client.send(new PutObjectCommand({ Bucket, Key: 'tagged', Body: 't' }));
      await gw.client.send(
        new PutObjectTaggingCommand({
          Bucket,
          Key: 'tagged',
          Tagging: {
            TagSet: [
              { Key: 'a', Value: '<&>' },
              { Key: 'b', Value: '' },
            ],
          },
        }),
      );
      const tags = await gw.client.send(new GetObjectTaggingCommand({ Bucket, Key: 'tagged' }));
      expect(tags.TagSet).toEqual([
        { Key: 'a', Value: '<&>' },
        { Key: 'b', Value: '' },
      ]);
      const got = await gw.client.send(new GetObjectCommand({ Bucket, Key: 'tagged' }));
      await got.Body?.transformToString();
      expect(got.TagCount).toBe(2);
    });

    it('answers GetObjectAttributes', async () => {
      await gw.client.send(new PutObjectCommand({ Bucket, Key: 'attrs', Body: 'abc' }));
      const out = await gw.client.send(
        new GetObjectAttributesCommand({
          Bucket,
          Key: 'attrs',
          ObjectAttributes: ['ETag', 'ObjectSize', 'StorageClass'],
        }),
      );
      expect(out.ObjectSize).toBe(3);
      expect(out.ETag).toBe('900150983cd24fb0d6963f7d28e17f72');
      expect(out.StorageClass).toBe('STANDARD');
    });

    it('streams large objects both ways', async () => {
      const data = Buffer.alloc(3 * 1024 * 1024 + 17);
      for (let i = 0; i < data.length; i++) data[i] = (i * 7) & 0xff;
      await gw.client.send(new PutObjectCommand({ Bucket, Key: 'big', Body: data }));
      const got = await gw.client.send(new GetObjectCommand({ Bucket, Key: 'big' }));
      const back = Buffer.from(
        await (got.Body as { transformToByteArray(): Promise<Uint8Array> }).transformToByteArray(),
      );
      expect(back.equals(data)).toBe(true);
    });
  });
}
