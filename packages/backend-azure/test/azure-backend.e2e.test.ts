// What is particular to the azure backend, over Azurite: the reserved upload-record prefix, the
// size limit of bucket settings, verbatim user metadata. Each case pins what
// docs/compatibility.md ("The azure backend") says. (Azure drops a blob's uncommitted blocks when
// the blob is written, which breaks an upload in progress on that key; Azurite keeps them, so
// that divergence is documented but cannot be shown here.) A container made by another tool has
// no recorded owner: CreateBucket on it is BucketAlreadyExists until an owner change.
import { Readable } from 'node:stream';
import { BlobServiceClient, StorageSharedKeyCredential } from '@azure/storage-blob';
import type { S3Error } from '@vgwrdma/backend-contract';
import { AZURITE_ACCOUNT, azuriteUnavailable, sharedAzurite } from '@vgwrdma/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AzureBackend, serviceUrl } from '../src/index.js';

const unavailable = azuriteUnavailable();
const ctx = {
  account: { access: 'azure-owner', role: 'admin' as const },
  requestId: 't',
  signal: new AbortController().signal,
};
const body = (b: Buffer) => Readable.from([b]);

async function s3Code(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    expect((err as S3Error).name).toBe('S3Error');
    return (err as S3Error).code;
  }
  throw new Error('expected an S3 error');
}

describe.skipIf(unavailable !== undefined)(
  `azure backend specifics${unavailable ? ` (skipped: ${unavailable})` : ''}`,
  () => {
    let backend: AzureBackend;
    let service: BlobServiceClient;
    const bucket = `azspec-${Date.now().toString(36)}`;

    beforeAll(async () => {
      const azurite = await sharedAzurite();
      const options = { account: AZURITE_ACCOUNT, key: azurite.key, url: azurite.url };
      backend = await AzureBackend.open(options);
      service = new BlobServiceClient(
        serviceUrl(options),
        new StorageSharedKeyCredential(AZURITE_ACCOUNT, azurite.key),
      );
      await backend.createBucket(ctx, {
        bucket,
        owner: ctx.account.access,
        acl: { Owner: ctx.account.access, Grantees: [] },
      });
    });
    afterAll(async () => {
      await backend?.shutdown();
    });

    it('hides upload records from listings and refuses keys under .vgw-uploads/', async () => {
      const { uploadId } = await backend.createMultipartUpload(ctx, { bucket, key: 'pending' });
      await backend.uploadPart(ctx, {
        bucket,
        key: 'pending',
        uploadId,
        partNumber: 1,
        body: body(Buffer.from('p1')),
        contentLength: 2,
      });
      const listed = await backend.listObjectsV2(ctx, { bucket, maxKeys: 1000 });
      expect(listed.contents.map((o) => o.key)).toEqual([]);
      expect(
        await s3Code(
          backend.putObject(ctx, {
            bucket,
            key: '.vgw-uploads/x',
            body: body(Buffer.from('x')),
            contentLength: 1,
          }),
        ),
      ).toBe('InvalidArgument');
      // Only upload records in the container: DeleteBucket is not refused for them.
      const other = `${bucket}-del`;
      await backend.createBucket(ctx, {
        bucket: other,
        owner: ctx.account.access,
        acl: { Owner: ctx.account.access, Grantees: [] },
      });
      await backend.createMultipartUpload(ctx, { bucket: other, key: 'k' });
      await backend.deleteBucket(ctx, other);
      expect(await s3Code(backend.headBucket(ctx, other))).toBe('NoSuchBucket');
    });

    it('refuses CreateBucket on a container made outside the gateway (no owner), until an owner change', async () => {
      const made = `${bucket}-made`;
      await service.getContainerClient(made).create();
      const alice = { ...ctx, account: { access: 'alice', role: 'userplus' as const } };
      const create = () =>
        backend.createBucket(alice, { bucket: made, owner: 'alice', acl: { Owner: 'alice', Grantees: [] } });
      expect(await s3Code(create())).toBe('BucketAlreadyExists');
      expect((await backend.getBucketAcl(ctx, made)).Owner).toBe('');
      await backend.changeBucketOwner(ctx, made, 'alice');
      expect(await s3Code(create())).toBe('BucketAlreadyOwnedByYou');
      await backend.deleteBucket(ctx, made);
    });

    it('answers EntityTooLarge when bucket settings outgrow 8 KiB of container metadata', async () => {
      const policy = JSON.stringify({ Version: '2012-10-17', Statement: [{ Sid: 'x'.repeat(9000) }] });
      expect(await s3Code(backend.putBucketPolicy(ctx, bucket, policy))).toBe('EntityTooLarge');
      const small = JSON.stringify({ Version: '2012-10-17', Statement: [] });
      await backend.putBucketPolicy(ctx, bucket, small);
      expect(await backend.getBucketPolicy(ctx, bucket)).toBe(small);
    });

    it('keeps user metadata names and values verbatim (dashes, capitals, UTF-8)', async () => {
      const metadata = { 'x-dashed-name': 'ünïcödé value', CamelCase: 'A' };
      await backend.putObject(ctx, {
        bucket,
        key: 'meta',
        body: body(Buffer.from('m')),
        contentLength: 1,
        metadata,
      });
      expect((await backend.headObject(ctx, { bucket, key: 'meta' })).metadata).toEqual(metadata);
    });
  },
);
