// Where S3 stores differ, `vgwrdma s3` still answers as S3 does: the cases found running an
// external suite through the proxy over Ceph RGW 16.2, each checked here through the built app
// with the AWS SDK, against our own gateway as the upstream (and, with BACKEND_S3_TEST_*, RGW):
// object lock on a bucket made without it (409), GetObjectAttributes of a version, ownership
// controls round trip, tags given at CreateMultipartUpload, copy-source preconditions, a PUT whose
// checksum comes as a header, and the ETag a Complete answers.
import { createHash, randomBytes } from 'node:crypto';
import {
  CompleteMultipartUploadCommand,
  CopyObjectCommand,
  type CopyObjectCommandInput,
  CreateMultipartUploadCommand,
  DeleteBucketOwnershipControlsCommand,
  GetBucketOwnershipControlsCommand,
  GetObjectAttributesCommand,
  GetObjectTaggingCommand,
  HeadObjectCommand,
  PutBucketOwnershipControlsCommand,
  PutBucketVersioningCommand,
  PutObjectCommand,
  PutObjectLockConfigurationCommand,
  type S3Client,
  UploadPartCommand,
  UploadPartCopyCommand,
} from '@aws-sdk/client-s3';
import { expectS3Error } from '@vgwrdma/test-kit/scene';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ProxyScene, startProxyScene } from './proxy-scene.js';

const MiB = 1024 ** 2;
const BUCKET = `div-${randomBytes(4).toString('hex')}`;
const VERSIONED = `${BUCKET}-v`;

let scene: ProxyScene | undefined;
let client: S3Client;

const md5Hex = (b: Uint8Array | string) => createHash('md5').update(b).digest('hex');

/** A two-part object made by a multipart upload through the proxy; its part size. */
async function multipartObject(key: string, tagging?: string): Promise<{ etag: string; body: Buffer }> {
  const parts = [randomBytes(5 * MiB), randomBytes(1234)];
  const created = await client.send(
    new CreateMultipartUploadCommand({ Bucket: BUCKET, Key: key, ...(tagging ? { Tagging: tagging } : {}) }),
  );
  const done = [];
  for (const [i, body] of parts.entries()) {
    const out = await client.send(
      new UploadPartCommand({
        Bucket: BUCKET,
        Key: key,
        UploadId: created.UploadId,
        PartNumber: i + 1,
        Body: body,
      }),
    );
    done.push({ PartNumber: i + 1, ETag: out.ETag });
  }
  const out = await client.send(
    new CompleteMultipartUploadCommand({
      Bucket: BUCKET,
      Key: key,
      UploadId: created.UploadId,
      MultipartUpload: { Parts: done },
    }),
  );
  return { etag: out.ETag ?? '', body: Buffer.concat(parts) };
}

beforeAll(async () => {
  scene = await startProxyScene({ versioning: true, metaPrefix: 'div-meta', buckets: [BUCKET, VERSIONED] });
  client = scene.client;
  await client.send(
    new PutBucketVersioningCommand({ Bucket: VERSIONED, VersioningConfiguration: { Status: 'Enabled' } }),
  );
}, 60_000);

afterAll(() => scene?.stop());

describe('vgwrdma s3: answers as S3 where upstreams differ', () => {
  it('object lock on a bucket created without it: 409 InvalidBucketState', async () => {
    await expectS3Error(
      client.send(
        new PutObjectLockConfigurationCommand({
          Bucket: BUCKET,
          ObjectLockConfiguration: {
            ObjectLockEnabled: 'Enabled',
            Rule: { DefaultRetention: { Mode: 'GOVERNANCE', Days: 1 } },
          },
        }),
      ),
      'InvalidBucketState',
      409,
    );
  });

  it('GetObjectAttributes of an older version answers that version', async () => {
    const first = await client.send(
      new PutObjectCommand({ Bucket: VERSIONED, Key: 'k', Body: 'first version' }),
    );
    await client.send(new PutObjectCommand({ Bucket: VERSIONED, Key: 'k', Body: 'the second, longer one' }));
    const out = await client.send(
      new GetObjectAttributesCommand({
        Bucket: VERSIONED,
        Key: 'k',
        VersionId: first.VersionId,
        ObjectAttributes: ['ETag', 'ObjectSize', 'StorageClass'],
      }),
    );
    expect(out).toMatchObject({
      VersionId: first.VersionId,
      ETag: md5Hex('first version'),
      ObjectSize: 'first version'.length,
      StorageClass: 'STANDARD',
    });
  });

  it('GetObjectAttributes counts the parts of a multipart object', async () => {
    const { etag } = await multipartObject('attrs-mp');
    const out = await client.send(
      new GetObjectAttributesCommand({
        Bucket: BUCKET,
        Key: 'attrs-mp',
        ObjectAttributes: ['ETag', 'ObjectParts'],
      }),
    );
    expect(out.ETag).toBe(etag.replaceAll('"', ''));
    expect(out.ObjectParts?.TotalPartsCount).toBe(2);
  });

  it('PutBucketOwnershipControls round trip with Get and Delete', async () => {
    await client.send(
      new PutBucketOwnershipControlsCommand({
        Bucket: BUCKET,
        OwnershipControls: { Rules: [{ ObjectOwnership: 'BucketOwnerPreferred' }] },
      }),
    );
    const got = await client.send(new GetBucketOwnershipControlsCommand({ Bucket: BUCKET }));
    expect(got.OwnershipControls?.Rules).toEqual([{ ObjectOwnership: 'BucketOwnerPreferred' }]);
    await client.send(new DeleteBucketOwnershipControlsCommand({ Bucket: BUCKET }));
    await expectS3Error(
      client.send(new GetBucketOwnershipControlsCommand({ Bucket: BUCKET })),
      'OwnershipControlsNotFoundError',
      404,
    );
  });

  it('tags given at CreateMultipartUpload are on the object after Complete; its ETag is the multipart one', async () => {
    const { etag, body } = await multipartObject('tagged-mp', 'project=x&tier=2');
    const digests = [body.subarray(0, 5 * MiB), body.subarray(5 * MiB)].map((p) =>
      createHash('md5').update(p).digest(),
    );
    expect(etag).toBe(`"${md5Hex(Buffer.concat(digests))}-2"`);
    const tags = await client.send(new GetObjectTaggingCommand({ Bucket: BUCKET, Key: 'tagged-mp' }));
    expect(tags.TagSet).toEqual([
      { Key: 'project', Value: 'x' },
      { Key: 'tier', Value: '2' },
    ]);
  });

  it('a PUT whose checksum comes as a header is stored, the checksum answered', async () => {
    const body = randomBytes(64 * 1024);
    const sha256 = createHash('sha256').update(body).digest('base64');
    const out = await client.send(
      new PutObjectCommand({ Bucket: BUCKET, Key: 'sha-header', Body: body, ChecksumSHA256: sha256 }),
    );
    expect(out.ChecksumSHA256).toBe(sha256);
    expect(out.ETag).toBe(`"${md5Hex(body)}"`);
  });

  describe('copy-source preconditions', () => {
    const SOURCE = 'copy-src';
    let etag = '';
    let modified = new Date();
    beforeAll(async () => {
      await client.send(new PutObjectCommand({ Bucket: BUCKET, Key: SOURCE, Body: 'copy me' }));
      const head = await client.send(new HeadObjectCommand({ Bucket: BUCKET, Key: SOURCE }));
      etag = head.ETag ?? '';
      modified = head.LastModified ?? new Date();
    });
    const copy = (Key: string, conditions: Partial<CopyObjectCommandInput>) =>
      client.send(
        new CopyObjectCommand({ Bucket: BUCKET, Key, CopySource: `${BUCKET}/${SOURCE}`, ...conditions }),
      );
    const day = 86_400_000;

    it.each([
      ['if-match, another ETag', () => ({ CopySourceIfMatch: '"0123456789abcdef0123456789abcdef"' })],
      ['if-none-match, the ETag', () => ({ CopySourceIfNoneMatch: etag })],
      ['if-none-match *', () => ({ CopySourceIfNoneMatch: '*' })],
      [
        'if-modified-since, after the write',
        () => ({ CopySourceIfModifiedSince: new Date(modified.getTime() + day) }),
      ],
      [
        'if-unmodified-since, before the write',
        () => ({ CopySourceIfUnmodifiedSince: new Date(modified.getTime() - day) }),
      ],
    ] as const)('%s: 412 PreconditionFailed, nothing copied', async (name, conditions) => {
      const key = `copy-refused-${name.replace(/[^a-z]+/g, '-')}`;
      await expectS3Error(copy(key, conditions()), 'PreconditionFailed', 412);
      await expectS3Error(client.send(new HeadObjectCommand({ Bucket: BUCKET, Key: key })), 'NotFound', 404);
    });

    it('conditions that hold: copied', async () => {
      const out = await copy('copy-ok', {
        CopySourceIfMatch: etag,
        CopySourceIfModifiedSince: new Date(modified.getTime() - day),
      });
      expect(out.CopyObjectResult?.ETag?.replaceAll('"', '')).toBe(md5Hex('copy me'));
      const out2 = await copy('copy-ok-2', {
        CopySourceIfNoneMatch: '"0123456789abcdef0123456789abcdef"',
        CopySourceIfUnmodifiedSince: new Date(modified.getTime() + day),
      });
      expect(out2.CopyObjectResult?.ETag?.replaceAll('"', '')).toBe(md5Hex('copy me'));
    });

    it('UploadPartCopy with if-match of another ETag: 412', async () => {
      const created = await client.send(new CreateMultipartUploadCommand({ Bucket: BUCKET, Key: 'upc' }));
      await expectS3Error(
        client.send(
          new UploadPartCopyCommand({
            Bucket: BUCKET,
            Key: 'upc',
            UploadId: created.UploadId,
            PartNumber: 1,
            CopySource: `${BUCKET}/${SOURCE}`,
            CopySourceIfMatch: '"0123456789abcdef0123456789abcdef"',
          }),
        ),
        'PreconditionFailed',
        412,
      );
    });
  });
});
