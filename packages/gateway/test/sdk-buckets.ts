// Buckets, listings, multipart uploads and bucket configuration through the real SDK.
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateBucketCommand,
  CreateMultipartUploadCommand,
  DeleteBucketCommand,
  GetBucketLocationCommand,
  GetBucketTaggingCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListBucketsCommand,
  ListMultipartUploadsCommand,
  ListObjectsCommand,
  ListObjectsV2Command,
  ListObjectVersionsCommand,
  ListPartsCommand,
  PutBucketTaggingCommand,
  PutObjectCommand,
  type S3ServiceException,
  UploadPartCommand,
  UploadPartCopyCommand,
} from '@aws-sdk/client-s3';
import type { Backend } from '@vgwrdma/backend-contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type TestGateway } from './support/harness.js';

export function bucketSuite(
  name: string,
  makeBackend: () => Promise<{ backend: Backend; cleanup(): Promise<void> }>,
) {
  describe(`buckets, listings and multipart over the SDK (${name})`, () => {
    let gw: TestGateway;
    let cleanup: () => Promise<void>;

    beforeAll(async () => {
      const made = await makeBackend();
      cleanup = made.cleanup;
      gw = await startGateway(made.backend);
    });
    afterAll(async () => {
      await gw.close();
      await cleanup();
    });

    it('creates, heads, lists, locates and deletes buckets', async () => {
      await gw.client.send(new CreateBucketCommand({ Bucket: 'b-one' }));
      await gw.client.send(new HeadBucketCommand({ Bucket: 'b-one' }));
      const list = await gw.client.send(new ListBucketsCommand({}));
      expect(list.Buckets?.map((b) => b.Name)).toContain('b-one');
      expect(list.Buckets?.[0]?.CreationDate).toBeInstanceOf(Date);
      const loc = await gw.client.send(new GetBucketLocationCommand({ Bucket: 'b-one' }));
      expect(loc.LocationConstraint ?? '').toBe('');
      // us-east-1's legacy rule: re-creating a bucket you own succeeds (200).
      const again = await gw.client.send(new CreateBucketCommand({ Bucket: 'b-one' }));
      expect(again.$metadata.httpStatusCode).toBe(200);
      await gw.client.send(new DeleteBucketCommand({ Bucket: 'b-one' }));
      const gone = await gw.client.send(new HeadBucketCommand({ Bucket: 'b-one' })).catch((e) => e);
      expect((gone as S3ServiceException).$metadata.httpStatusCode).toBe(404);
    });

    it('shows a user only its own buckets, and an admin every bucket', async () => {
      await gw.adminClient.send(new CreateBucketCommand({ Bucket: 'admins-own' }));
      await gw.client.send(new CreateBucketCommand({ Bucket: 'users-own' }));
      const user = await gw.client.send(new ListBucketsCommand({}));
      expect(user.Buckets?.map((b) => b.Name)).toContain('users-own');
      expect(user.Buckets?.map((b) => b.Name)).not.toContain('admins-own');
      const admin = await gw.adminClient.send(new ListBucketsCommand({}));
      expect(admin.Buckets?.map((b) => b.Name)).toEqual(expect.arrayContaining(['users-own', 'admins-own']));
    });

    it('lists v2 with delimiter, prefixes and continuation tokens', async () => {
      const Bucket = 'listing';
      await gw.client.send(new CreateBucketCommand({ Bucket }));
      const keys = ['a/1', 'a/2', 'b', 'c/x/y', 'd', 'e'];
      for (const Key of keys) await gw.client.send(new PutObjectCommand({ Bucket, Key, Body: Key }));
      const top = await gw.client.send(new ListObjectsV2Command({ Bucket, Delimiter: '/' }));
      expect(top.Contents?.map((o) => o.Key)).toEqual(['b', 'd', 'e']);
      expect(top.CommonPrefixes?.map((p) => p.Prefix)).toEqual(['a/', 'c/']);
      expect(top.KeyCount).toBe(5);

      const seen: string[] = [];
      let token: string | undefined;
      let pages = 0;
      do {
        const page = await gw.client.send(
          new ListObjectsV2Command({ Bucket, MaxKeys: 2, ContinuationToken: token }),
        );
        seen.push(...(page.Contents ?? []).map((o) => o.Key ?? ''));
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
        pages++;
      } while (token);
      expect(seen).toEqual(keys);
      expect(pages).toBe(3);

      const after = await gw.client.send(new ListObjectsV2Command({ Bucket, StartAfter: 'c/x/y' }));
      expect(after.Contents?.map((o) => o.Key)).toEqual(['d', 'e']);
      const owner = await gw.client.send(
        new ListObjectsV2Command({ Bucket, Prefix: 'a/', FetchOwner: true }),
      );
      expect(owner.Contents?.[0]?.Owner?.ID).toBeDefined();
      const noOwner = await gw.client.send(new ListObjectsV2Command({ Bucket, Prefix: 'a/' }));
      expect(noOwner.Contents?.[0]?.Owner).toBeUndefined();
    });

    it('lists v1 with markers, and versions', async () => {
      const Bucket = 'listing';
      const v1 = await gw.client.send(new ListObjectsCommand({ Bucket, Marker: 'b', MaxKeys: 2 }));
      expect(v1.Contents?.map((o) => o.Key)).toEqual(['c/x/y', 'd']);
      expect(v1.IsTruncated).toBe(true);
      // v1 names every object's owner without being asked (s3-tests' test_bucket_list_return_data).
      expect(v1.Contents?.map((o) => o.Owner?.ID)).toEqual([expect.any(String), expect.any(String)]);
      const versions = await gw.client.send(new ListObjectVersionsCommand({ Bucket, Prefix: 'a/' }));
      expect(versions.Versions?.map((v) => v.Key)).toEqual(['a/1', 'a/2']);
    });

    it('runs a multipart upload with a part copy, listing parts and uploads', async () => {
      const Bucket = 'multipart';
      await gw.client.send(new CreateBucketCommand({ Bucket }));
      const part1 = Buffer.alloc(5 * 1024 * 1024, 'a');
      await gw.client.send(new PutObjectCommand({ Bucket, Key: 'copy-source', Body: '0123456789' }));
      const { UploadId } = await gw.client.send(
        new CreateMultipartUploadCommand({
          Bucket,
          Key: 'mp obj',
          ContentType: 'text/x-test',
          Metadata: { m: 'v' },
        }),
      );
      expect(UploadId).toBeTruthy();
      const uploads = await gw.client.send(new ListMultipartUploadsCommand({ Bucket }));
      expect(uploads.Uploads?.map((u) => u.UploadId)).toContain(UploadId);

      const p1 = await gw.client.send(
        new UploadPartCommand({ Bucket, Key: 'mp obj', UploadId, PartNumber: 1, Body: part1 }),
      );
      const p2 = await gw.client.send(
        new UploadPartCopyCommand({
          Bucket,
          Key: 'mp obj',
          UploadId,
          PartNumber: 2,
          CopySource: `${Bucket}/copy-source`,
          CopySourceRange: 'bytes=2-5',
        }),
      );
      expect(p2.CopyPartResult?.ETag).toBeTruthy();
      const parts = await gw.client.send(new ListPartsCommand({ Bucket, Key: 'mp obj', UploadId }));
      expect(parts.Parts?.map((p) => [p.PartNumber, p.Size])).toEqual([
        [1, part1.length],
        [2, 4],
      ]);
      const done = await gw.client.send(
        new CompleteMultipartUploadCommand({
          Bucket,
          Key: 'mp obj',
          UploadId,
          MultipartUpload: {
            Parts: [
              { PartNumber: 1, ETag: p1.ETag },
              { PartNumber: 2, ETag: p2.CopyPartResult?.ETag },
            ],
          },
        }),
      );
      expect(done.ETag).toMatch(/-2"$/);
      const head = await gw.client.send(new HeadObjectCommand({ Bucket, Key: 'mp obj' }));
      expect(head.ContentLength).toBe(part1.length + 4);
      expect(head.ContentType).toBe('text/x-test');
      const part2 = await gw.client.send(new GetObjectCommand({ Bucket, Key: 'mp obj', PartNumber: 2 }));
      expect(await part2.Body?.transformToString()).toBe('2345');
      expect(part2.PartsCount).toBe(2);
    });

    it('aborts multipart uploads', async () => {
      const Bucket = 'multipart';
      const { UploadId } = await gw.client.send(new CreateMultipartUploadCommand({ Bucket, Key: 'aborted' }));
      await gw.client.send(new AbortMultipartUploadCommand({ Bucket, Key: 'aborted', UploadId }));
      const err = await gw.client
        .send(new ListPartsCommand({ Bucket, Key: 'aborted', UploadId }))
        .catch((e) => e);
      expect((err as S3ServiceException).name).toBe('NoSuchUpload');
    });

    it('rejects a completion with a wrong part ETag', async () => {
      const Bucket = 'multipart';
      const { UploadId } = await gw.client.send(
        new CreateMultipartUploadCommand({ Bucket, Key: 'bad-etag' }),
      );
      await gw.client.send(
        new UploadPartCommand({ Bucket, Key: 'bad-etag', UploadId, PartNumber: 1, Body: 'x' }),
      );
      const err = await gw.client
        .send(
          new CompleteMultipartUploadCommand({
            Bucket,
            Key: 'bad-etag',
            UploadId,
            MultipartUpload: { Parts: [{ PartNumber: 1, ETag: '"00000000000000000000000000000000"' }] },
          }),
        )
        .catch((e) => e);
      expect((err as S3ServiceException).name).toBe('InvalidPart');
    });

    it('stores and returns bucket tags', async () => {
      await gw.client.send(new CreateBucketCommand({ Bucket: 'tagged-bucket' }));
      await gw.client.send(
        new PutBucketTaggingCommand({
          Bucket: 'tagged-bucket',
          Tagging: { TagSet: [{ Key: 'team', Value: 'storage' }] },
        }),
      );
      const out = await gw.client.send(new GetBucketTaggingCommand({ Bucket: 'tagged-bucket' }));
      expect(out.TagSet).toEqual([{ Key: 'team', Value: 'storage' }]);
    });
  });
}
