// Bucket and object features on the built gateway, through real clients: CORS (set by the AWS
// CLI, then a browser-style preflight and GET), bucket tagging, GetObjectAttributes,
// GetBucketLocation, part-number reads of a multipart object, a second user (users.json)
// granted and refused by ACL grants and by a bucket policy's Deny, and NotImplemented for
// lifecycle and replication.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  CompleteMultipartUploadCommand,
  CreateBucketCommand,
  CreateMultipartUploadCommand,
  DeleteBucketTaggingCommand,
  GetBucketLifecycleConfigurationCommand,
  GetBucketLocationCommand,
  GetBucketReplicationCommand,
  GetBucketTaggingCommand,
  GetObjectAttributesCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutBucketAclCommand,
  PutBucketLifecycleConfigurationCommand,
  PutBucketPolicyCommand,
  PutBucketTaggingCommand,
  PutObjectCommand,
  type S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { AWS_BIN, type AwsRunner, corsPreflight, type GatewayProcess } from '@vgwrdma/test-kit';
import { expectS3Error, sceneTest } from '@vgwrdma/test-kit/scene';
import { describe, expect, it } from 'vitest';

const BOB = { access: 'bob-key', secret: 'bob-secret' };
const ORIGIN = 'http://app.example';
const MiB = 1024 * 1024;

const test = sceneTest({ users: { bob: BOB }, buckets: ['features'] });

describe('vgwrdma bucket features', { timeout: 120_000 }, () => {
  let gw: GatewayProcess;
  let work: string;
  let aws: AwsRunner;
  let root: S3Client;
  let bob: S3Client;

  async function cli(...args: string[]): Promise<string> {
    const r = await aws(args);
    if (r.code !== 0) throw new Error(`aws ${args.join(' ')} exited ${r.code}:\n${r.stderr}`);
    return r.stdout;
  }

  test.beforeAll(async ({ scene, s3, clients }) => {
    gw = scene.gw;
    work = scene.dir;
    root = s3;
    bob = clients.bob;
    if (AWS_BIN !== undefined) aws = await scene.aws();
  });

  it.skipIf(AWS_BIN === undefined)(
    'CORS set by the CLI answers a preflight and a GET with Origin',
    async () => {
      const rules = {
        CORSRules: [
          {
            AllowedOrigins: [ORIGIN],
            AllowedMethods: ['GET', 'PUT'],
            AllowedHeaders: ['*'],
            ExposeHeaders: ['ETag'],
            MaxAgeSeconds: 600,
          },
        ],
      };
      await cli(
        's3api',
        'put-bucket-cors',
        '--bucket',
        'features',
        '--cors-configuration',
        JSON.stringify(rules),
      );
      await root.send(new PutObjectCommand({ Bucket: 'features', Key: 'page.html', Body: '<p>hi</p>' }));

      const preflight = await corsPreflight(`${gw.url}/features/page.html`, ORIGIN, 'PUT', 'content-type');
      expect(preflight.status).toBe(200);
      expect(preflight.headers.get('access-control-allow-origin')).toBe(ORIGIN);
      expect(preflight.headers.get('access-control-allow-methods')).toContain('PUT');
      expect(preflight.headers.get('access-control-max-age')).toBe('600');
      const refused = await corsPreflight(`${gw.url}/features/page.html`, 'http://evil.example');
      expect(refused.status).toBe(403);

      const url = await getSignedUrl(root, new GetObjectCommand({ Bucket: 'features', Key: 'page.html' }));
      const got = await fetch(url, { headers: { origin: ORIGIN } });
      expect([got.status, await got.text()]).toEqual([200, '<p>hi</p>']);
      expect(got.headers.get('access-control-allow-origin')).toBe(ORIGIN);
      expect(got.headers.get('access-control-expose-headers')).toBe('ETag');
    },
  );

  it('tags a bucket, reads and removes the tags', async () => {
    const TagSet = [
      { Key: 'team', Value: 'storage' },
      { Key: 'tier', Value: 'gold' },
    ];
    await root.send(new PutBucketTaggingCommand({ Bucket: 'features', Tagging: { TagSet } }));
    expect((await root.send(new GetBucketTaggingCommand({ Bucket: 'features' }))).TagSet).toEqual(TagSet);
    await root.send(new DeleteBucketTaggingCommand({ Bucket: 'features' }));
    await expectS3Error(root.send(new GetBucketTaggingCommand({ Bucket: 'features' })), 'NoSuchTagSet');
  });

  it('answers GetBucketLocation with the region (null for us-east-1)', async () => {
    const loc = await root.send(new GetBucketLocationCommand({ Bucket: 'features' }));
    expect(loc.LocationConstraint ?? null).toBeNull();
    await expectS3Error(
      root.send(new GetBucketLocationCommand({ Bucket: 'no-such-bucket-here' })),
      'NoSuchBucket',
    );
  });

  it.skipIf(AWS_BIN === undefined)(
    'reads a multipart object by part number; GetObjectAttributes lists its parts',
    async () => {
      const Bucket = 'features';
      const Key = 'two-parts.bin';
      const part1 = Buffer.alloc(5 * MiB, 1);
      const part2 = Buffer.from('the second, short part');
      const { UploadId } = await root.send(new CreateMultipartUploadCommand({ Bucket, Key }));
      const etags: string[] = [];
      for (const [i, Body] of [part1, part2].entries()) {
        etags.push(
          (await root.send(new UploadPartCommand({ Bucket, Key, UploadId, PartNumber: i + 1, Body }))).ETag ??
            '',
        );
      }
      const done = await root.send(
        new CompleteMultipartUploadCommand({
          Bucket,
          Key,
          UploadId,
          MultipartUpload: { Parts: etags.map((ETag, i) => ({ ETag, PartNumber: i + 1 })) },
        }),
      );
      expect(done.ETag).toMatch(/^"[0-9a-f]{32}-2"$/);

      const out = join(work, 'part2');
      const head = JSON.parse(
        await cli(
          's3api',
          'get-object',
          '--bucket',
          Bucket,
          '--key',
          Key,
          '--part-number',
          '2',
          out,
          '--output',
          'json',
        ),
      ) as { PartsCount: number; ContentLength: number; ContentRange: string };
      expect(await readFile(out, 'utf8')).toBe(part2.toString());
      const total = part1.length + part2.length;
      expect(head).toMatchObject({
        PartsCount: 2,
        ContentLength: part2.length,
        ContentRange: `bytes ${part1.length}-${total - 1}/${total}`,
      });

      const attrs = await root.send(
        new GetObjectAttributesCommand({
          Bucket,
          Key,
          ObjectAttributes: ['ETag', 'ObjectSize', 'ObjectParts', 'StorageClass'],
        }),
      );
      expect(attrs.ETag).toBe(done.ETag?.replaceAll('"', ''));
      expect(attrs.ObjectSize).toBe(total);
      expect(attrs.ObjectParts?.TotalPartsCount).toBe(2);
      expect(attrs.StorageClass).toBe('STANDARD');
      await expectS3Error(
        root.send(new GetObjectCommand({ Bucket, Key, PartNumber: 3 })),
        'InvalidPartNumber',
      );
    },
  );

  it('lets a second user in by ACL grant, and keeps them out where the policy denies', async () => {
    const Bucket = 'team';
    await root.send(new CreateBucketCommand({ Bucket }));
    const put = (Key: string) => bob.send(new PutObjectCommand({ Bucket, Key, Body: 'bob' }));
    await expectS3Error(put('a'), 'AccessDenied');
    await expectS3Error(bob.send(new ListObjectsV2Command({ Bucket })), 'AccessDenied');

    await root.send(
      new PutBucketAclCommand({ Bucket, GrantWrite: `id="${BOB.access}"`, GrantRead: `id="${BOB.access}"` }),
    );
    await put('a');
    await put('archive/b');
    expect((await bob.send(new ListObjectsV2Command({ Bucket }))).Contents?.map((o) => o.Key)).toEqual([
      'a',
      'archive/b',
    ]);

    const policy = {
      Version: '2012-10-17',
      Statement: [
        {
          Effect: 'Deny',
          Principal: { AWS: [BOB.access] },
          Action: ['s3:PutObject'],
          Resource: [`arn:aws:s3:::${Bucket}/archive/*`],
        },
      ],
    };
    await root.send(new PutBucketPolicyCommand({ Bucket, Policy: JSON.stringify(policy) }));
    await expectS3Error(put('archive/c'), 'AccessDenied');
    await put('c');
    // The owner is not named by the Deny.
    await root.send(new PutObjectCommand({ Bucket, Key: 'archive/c', Body: 'root' }));

    await root.send(new PutBucketAclCommand({ Bucket, ACL: 'private' }));
    await expectS3Error(put('d'), 'AccessDenied');
  });

  it('answers NotImplemented for lifecycle and replication', async () => {
    const Bucket = 'features';
    await expectS3Error(
      root.send(new GetBucketLifecycleConfigurationCommand({ Bucket })),
      'NotImplemented',
      501,
    );
    await expectS3Error(
      root.send(
        new PutBucketLifecycleConfigurationCommand({
          Bucket,
          LifecycleConfiguration: {
            Rules: [{ ID: 'r', Status: 'Enabled', Filter: { Prefix: '' }, Expiration: { Days: 1 } }],
          },
        }),
      ),
      'NotImplemented',
    );
    await expectS3Error(root.send(new GetBucketReplicationCommand({ Bucket })), 'NotImplemented', 501);
  });
});
