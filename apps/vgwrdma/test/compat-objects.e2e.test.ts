// S3 compatibility of bucket and object writes on the built gateway (posix backend with
// --versioning-dir and a second user), through @aws-sdk/client-s3: CreateBucket on a bucket the
// caller already owns (200 in us-east-1, BucketAlreadyOwnedByYou elsewhere, BucketAlreadyExists
// for another owner's), x-amz-version-id only where versioning is Enabled, the 10-tag limit
// (InvalidTag), and Complete after two uploads of one part number raced.
import {
  CompleteMultipartUploadCommand,
  CopyObjectCommand,
  CreateBucketCommand,
  CreateMultipartUploadCommand,
  GetBucketAclCommand,
  GetObjectCommand,
  ListPartsCommand,
  PutBucketVersioningCommand,
  PutObjectCommand,
  PutObjectTaggingCommand,
  type S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { type GatewayProcess, ROOT_CREDENTIALS, startScene } from '@vgwrdma/test-kit';
import { expectS3Error, sceneTest } from '@vgwrdma/test-kit/scene';
import { beforeAll, describe, expect, it } from 'vitest';
import { openHeldRequest, statusOf } from './helpers/held-request.js';

const BOB = { access: 'compat-bob', secret: 'compat-bob-secret', role: 'userplus' } as const;
const ALL_USERS = 'http://acs.amazonaws.com/groups/global/AllUsers';

const test = sceneTest({ users: { bob: BOB }, versioning: true });

describe('vgwrdma S3 compatibility: buckets, versions, tags, multipart', { timeout: 120_000 }, () => {
  let gw: GatewayProcess;
  let root: S3Client;
  let bob: S3Client;

  test.beforeAll(({ scene, s3, clients }) => {
    gw = scene.gw;
    root = s3;
    bob = clients.bob;
  });

  const body = async (Bucket: string, Key: string): Promise<string> =>
    (await (await root.send(new GetObjectCommand({ Bucket, Key }))).Body?.transformToString()) ?? '';

  describe('CreateBucket on an existing bucket', () => {
    it('succeeds in us-east-1 for its owner, keeps the objects and resets the ACL', async () => {
      const Bucket = 'recreate';
      await root.send(new CreateBucketCommand({ Bucket, ACL: 'public-read' }));
      await root.send(new PutObjectCommand({ Bucket, Key: 'kept', Body: 'still here' }));
      const before = await root.send(new GetBucketAclCommand({ Bucket }));
      expect(before.Grants?.some((g) => g.Grantee?.URI === ALL_USERS)).toBe(true);

      const again = await root.send(new CreateBucketCommand({ Bucket }));
      expect(again.$metadata.httpStatusCode).toBe(200);
      expect(await body(Bucket, 'kept')).toBe('still here');
      const after = await root.send(new GetBucketAclCommand({ Bucket }));
      expect(after.Grants?.some((g) => g.Grantee?.URI === ALL_USERS)).toBe(false);
    });

    it("answers 409 BucketAlreadyExists for another owner's bucket, either way round", async () => {
      await bob.send(new CreateBucketCommand({ Bucket: 'bobs-bucket' }));
      await bob.send(new PutObjectCommand({ Bucket: 'bobs-bucket', Key: 'k', Body: 'bob' }));
      await expectS3Error(
        root.send(new CreateBucketCommand({ Bucket: 'bobs-bucket' })),
        'BucketAlreadyExists',
        409,
      );
      await root.send(new CreateBucketCommand({ Bucket: 'roots-bucket' }));
      await expectS3Error(
        bob.send(new CreateBucketCommand({ Bucket: 'roots-bucket' })),
        'BucketAlreadyExists',
        409,
      );
      expect(await body('bobs-bucket', 'k')).toBe('bob');
    });

    it('answers 409 BucketAlreadyOwnedByYou outside us-east-1', async () => {
      const eu = await startScene({ globalArgs: ['--region', 'eu-west-3'], sdk: { region: 'eu-west-3' } });
      const client = eu.s3;
      try {
        const Bucket = 'paris';
        const config = { LocationConstraint: 'eu-west-3' as const };
        await client.send(new CreateBucketCommand({ Bucket, CreateBucketConfiguration: config }));
        const again = client.send(new CreateBucketCommand({ Bucket, CreateBucketConfiguration: config }));
        await expectS3Error(again, 'BucketAlreadyOwnedByYou', 409);
      } finally {
        await eu.stop();
      }
    });
  });

  describe('x-amz-version-id on writes', () => {
    /** The version ids a PutObject, a CopyObject and a one-part CompleteMultipartUpload answer. */
    async function writtenVersions(Bucket: string): Promise<(string | undefined)[]> {
      const put = await root.send(new PutObjectCommand({ Bucket, Key: 'put', Body: 'p' }));
      const copy = await root.send(
        new CopyObjectCommand({ Bucket, Key: 'copy', CopySource: `${Bucket}/put` }),
      );
      const { UploadId } = await root.send(new CreateMultipartUploadCommand({ Bucket, Key: 'mp' }));
      const part = await root.send(
        new UploadPartCommand({ Bucket, Key: 'mp', UploadId, PartNumber: 1, Body: 'part' }),
      );
      const done = await root.send(
        new CompleteMultipartUploadCommand({
          Bucket,
          Key: 'mp',
          UploadId,
          MultipartUpload: { Parts: [{ PartNumber: 1, ETag: part.ETag }] },
        }),
      );
      return [put.VersionId, copy.VersionId, done.VersionId];
    }
    const versioning = (Bucket: string, Status: 'Enabled' | 'Suspended') =>
      root.send(new PutBucketVersioningCommand({ Bucket, VersioningConfiguration: { Status } }));

    it('is absent in a bucket that never had versioning', async () => {
      await root.send(new CreateBucketCommand({ Bucket: 'never-versioned' }));
      expect(await writtenVersions('never-versioned')).toEqual([undefined, undefined, undefined]);
    });

    it('is present while versioning is Enabled and absent once it is Suspended', async () => {
      const Bucket = 'versioned';
      await root.send(new CreateBucketCommand({ Bucket }));
      await versioning(Bucket, 'Enabled');
      const enabled = await writtenVersions(Bucket);
      for (const id of enabled) expect(id).toMatch(/^(?!null$)\S+$/);
      expect(new Set(enabled).size).toBe(3);
      await versioning(Bucket, 'Suspended');
      expect(await writtenVersions(Bucket)).toEqual([undefined, undefined, undefined]);
      // The write still made the null version.
      const nul = await root.send(new GetObjectCommand({ Bucket, Key: 'put', VersionId: 'null' }));
      expect(await nul.Body?.transformToString()).toBe('p');
    });
  });

  describe('object tag limit', () => {
    const tags = (n: number) => Array.from({ length: n }, (_, i) => ({ Key: `k${i}`, Value: `v${i}` }));
    const query = (n: number) =>
      tags(n)
        .map((t) => `${t.Key}=${t.Value}`)
        .join('&');

    it('refuses more than 10 tags with 400 InvalidTag, on PutObject and PutObjectTagging', async () => {
      const Bucket = 'tag-limit';
      await root.send(new CreateBucketCommand({ Bucket }));
      await root.send(new PutObjectCommand({ Bucket, Key: 'ten', Body: 'x', Tagging: query(10) }));
      await expectS3Error(
        root.send(new PutObjectCommand({ Bucket, Key: 'eleven', Body: 'x', Tagging: query(11) })),
        'InvalidTag',
        400,
      );
      await expectS3Error(
        root.send(new PutObjectTaggingCommand({ Bucket, Key: 'ten', Tagging: { TagSet: tags(11) } })),
        'InvalidTag',
        400,
      );
      await root.send(new PutObjectTaggingCommand({ Bucket, Key: 'ten', Tagging: { TagSet: tags(10) } }));
    });
  });

  describe('two uploads of one part number racing', () => {
    const Bucket = 'part-race';
    const SIZE = 256 * 1024;

    /**
     * Uploads part 1 twice: A starts first and is held half-sent while B is uploaded whole, then
     * A finishes, last. Answers both ETags.
     */
    async function race(Key: string, UploadId: string): Promise<{ a: string; b: string }> {
      const held = await openHeldRequest(gw.url, {
        method: 'PUT',
        path: `/${Bucket}/${Key}?partNumber=1&uploadId=${encodeURIComponent(UploadId)}`,
        contentLength: SIZE,
        credentials: ROOT_CREDENTIALS,
      });
      held.send(Buffer.alloc(SIZE / 2, 0x41));
      const b = await root.send(
        new UploadPartCommand({ Bucket, Key, UploadId, PartNumber: 1, Body: Buffer.alloc(SIZE, 0x42) }),
      );
      held.send(Buffer.alloc(SIZE / 2, 0x41));
      const reply = await held.closed;
      expect(statusOf(reply)).toBe(200);
      const a = /^etag:\s*(\S+)\r$/im.exec(reply)?.[1];
      if (a === undefined || b.ETag === undefined) throw new Error(`no ETag:\n${reply}`);
      return { a, b: b.ETag };
    }
    async function startRace(Key: string) {
      const { UploadId = '' } = await root.send(new CreateMultipartUploadCommand({ Bucket, Key }));
      return { UploadId, ...(await race(Key, UploadId)) };
    }
    const complete = (Key: string, UploadId: string, etags: readonly string[]) =>
      root.send(
        new CompleteMultipartUploadCommand({
          Bucket,
          Key,
          UploadId,
          MultipartUpload: { Parts: etags.map((ETag) => ({ PartNumber: 1, ETag })) },
        }),
      );
    const letters = async (Key: string) => {
      const text = await body(Bucket, Key);
      return { length: text.length, letters: [...new Set(text)].join('') };
    };

    beforeAll(async () => {
      await root.send(new CreateBucketCommand({ Bucket }));
    });

    it('lists the upload that finished last', async () => {
      const { UploadId, a } = await startRace('listed');
      const parts = await root.send(new ListPartsCommand({ Bucket, Key: 'listed', UploadId }));
      expect(parts.Parts?.map((p) => [p.PartNumber, p.ETag])).toEqual([[1, a]]);
    });

    it('completes with the ETag of the upload that finished first, holding its bytes', async () => {
      const { UploadId, b } = await startRace('first-done');
      await complete('first-done', UploadId, [b]);
      expect(await letters('first-done')).toEqual({ length: SIZE, letters: 'B' });
    });

    it('completes with the ETag of the upload that finished last, holding its bytes', async () => {
      const { UploadId, a } = await startRace('last-done');
      await complete('last-done', UploadId, [a]);
      expect(await letters('last-done')).toEqual({ length: SIZE, letters: 'A' });
    });

    it('takes the last of repeated entries for one part number (both ETags listed)', async () => {
      const { UploadId, a, b } = await startRace('both-listed');
      await complete('both-listed', UploadId, [b, a]);
      expect(await letters('both-listed')).toEqual({ length: SIZE, letters: 'A' });
    });

    it('still refuses an ETag no upload of that part had', async () => {
      const { UploadId } = await startRace('unknown');
      await expectS3Error(complete('unknown', UploadId, [`"${'0'.repeat(32)}"`]), 'InvalidPart', 400);
    });
  });
});
