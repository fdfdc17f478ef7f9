// Attributes larger than ext4 keeps in a file's xattrs (one 4 KiB block) answered 500 (a 10 KB
// bucket policy, a large CORS configuration) or 507 (an 8 KB Content-Type) — issue 16 item 13.
// Bucket documents and object tag sets are now stored whatever their size (an overflow file the
// xattr points to); other object attributes that cannot fit answer 400 with nothing stored. AWS's
// own limits hold all the same: a 20 KB bucket policy (PolicyTooLarge) and 100 CORS rules
// (InvalidRequest) — issue 30.
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import {
  DeleteBucketPolicyCommand,
  GetBucketCorsCommand,
  GetBucketPolicyCommand,
  GetObjectCommand,
  GetObjectTaggingCommand,
  HeadObjectCommand,
  PutBucketCorsCommand,
  PutBucketPolicyCommand,
  PutObjectCommand,
  PutObjectTaggingCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { corsPreflight, ROOT_CREDENTIALS } from '@vgwrdma/test-kit';
import { expectS3Error, sceneRef, sceneTest } from '@vgwrdma/test-kit/scene';
import { describe, expect, it } from 'vitest';

const bucket = 'limits';
const ORIGIN = 'http://big.example';
const test = sceneTest({ buckets: [bucket] });
const the = sceneRef(test);
let anon: S3Client;
test.beforeAll(({ scene }) => {
  anon = scene.client(ROOT_CREDENTIALS, {
    credentials: { accessKeyId: '', secretAccessKey: '' },
    signer: { sign: async (request) => request },
  });
});

/** Regular files under the bucket's temp area (temp files of writes). */
async function tempFiles(): Promise<string[]> {
  const dir = join(the.gw.root, bucket, '.sgwtmp');
  const out: string[] = [];
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    if ((await stat(join(dir, name))).isFile()) out.push(name);
  }
  return out;
}

/** About `bytes` of policy: filler statements, then anonymous GET of public/* allowed. */
function bigPolicy(bytes: number): string {
  const statement = (sid: string, action: string, resource: string) => ({
    Sid: sid,
    Effect: 'Allow',
    Principal: '*',
    Action: action,
    Resource: `arn:aws:s3:::${bucket}/${resource}`,
  });
  const doc = { Version: '2012-10-17', Statement: [statement('Public', 's3:GetObject', 'public/*')] };
  for (let i = 0; JSON.stringify(doc).length < bytes; i++) {
    doc.Statement.push(statement(`Filler${i}`, 's3:GetObjectTagging', `filler-${i}/*`));
  }
  return JSON.stringify(doc);
}

describe('bucket documents larger than an xattr', () => {
  it('a 10 KB bucket policy is stored, read back and enforced; replacing and deleting it work', async () => {
    const policy = bigPolicy(10 * 1024);
    expect(policy.length).toBeGreaterThan(10 * 1024);
    await the.s3.send(new PutObjectCommand({ Bucket: bucket, Key: 'public/page', Body: 'public page' }));
    await the.s3.send(new PutObjectCommand({ Bucket: bucket, Key: 'private/page', Body: 'private' }));
    await expectS3Error(
      anon.send(new GetObjectCommand({ Bucket: bucket, Key: 'public/page' })),
      'AccessDenied',
      403,
    );

    await the.s3.send(new PutBucketPolicyCommand({ Bucket: bucket, Policy: policy }));
    const got = await the.s3.send(new GetBucketPolicyCommand({ Bucket: bucket }));
    expect(got.Policy).toBe(policy);
    // The stored policy is the one evaluated.
    const page = await anon.send(new GetObjectCommand({ Bucket: bucket, Key: 'public/page' }));
    expect(await page.Body?.transformToString()).toBe('public page');
    await expectS3Error(
      anon.send(new GetObjectCommand({ Bucket: bucket, Key: 'private/page' })),
      'AccessDenied',
      403,
    );

    const small = bigPolicy(0);
    await the.s3.send(new PutBucketPolicyCommand({ Bucket: bucket, Policy: small }));
    expect((await the.s3.send(new GetBucketPolicyCommand({ Bucket: bucket }))).Policy).toBe(small);
    await the.s3.send(new PutBucketPolicyCommand({ Bucket: bucket, Policy: policy }));
    await the.s3.send(new DeleteBucketPolicyCommand({ Bucket: bucket }));
    await expectS3Error(
      the.s3.send(new GetBucketPolicyCommand({ Bucket: bucket })),
      'NoSuchBucketPolicy',
      404,
    );
    expect(await readdir(join(the.gw.root, bucket, '.sgwtmp', 'bucket-meta'))).toEqual([]);
  });

  it('a 30 KB CORS configuration is stored, read back and answers preflights', async () => {
    const rules = [
      { AllowedOrigins: [ORIGIN], AllowedMethods: ['GET'], AllowedHeaders: ['*'], MaxAgeSeconds: 60 },
    ];
    for (let i = 0; i < 99; i++) {
      rules.push({
        AllowedOrigins: [`http://filler-${i}-${'x'.repeat(200)}.example`],
        AllowedMethods: ['GET'],
        AllowedHeaders: ['*'],
        MaxAgeSeconds: i,
      });
    }
    await the.s3.send(new PutBucketCorsCommand({ Bucket: bucket, CORSConfiguration: { CORSRules: rules } }));
    const got = await the.s3.send(new GetBucketCorsCommand({ Bucket: bucket }));
    expect(got.CORSRules?.length).toBe(100);
    expect(got.CORSRules?.[99]?.AllowedOrigins?.[0]).toMatch(/^http:\/\/filler-98-x+\.example$/);
    const preflight = await corsPreflight(`${the.gw.url}/${bucket}/any`, ORIGIN);
    expect([preflight.status, preflight.headers.get('access-control-allow-origin')]).toEqual([200, ORIGIN]);
  });
});

describe("AWS's limits on bucket documents", () => {
  it('a bucket policy over 20 KB is PolicyTooLarge and changes nothing; one just under is stored', async () => {
    const fits = bigPolicy(20 * 1024 - 200);
    expect(Buffer.byteLength(fits)).toBeLessThanOrEqual(20 * 1024);
    await the.s3.send(new PutBucketPolicyCommand({ Bucket: bucket, Policy: fits }));
    expect((await the.s3.send(new GetBucketPolicyCommand({ Bucket: bucket }))).Policy).toBe(fits);
    const tooLarge = bigPolicy(20 * 1024 + 1);
    await expectS3Error(
      the.s3.send(new PutBucketPolicyCommand({ Bucket: bucket, Policy: tooLarge })),
      'PolicyTooLarge',
      400,
    );
    expect((await the.s3.send(new GetBucketPolicyCommand({ Bucket: bucket }))).Policy).toBe(fits);
    await the.s3.send(new DeleteBucketPolicyCommand({ Bucket: bucket }));
  });

  it('a CORS configuration of 101 rules is InvalidRequest and changes nothing; 100 are stored', async () => {
    const rule = (i: number) => ({
      AllowedOrigins: [`http://site-${i}.example`],
      AllowedMethods: ['GET'],
    });
    const hundred = Array.from({ length: 100 }, (_, i) => rule(i));
    await the.s3.send(
      new PutBucketCorsCommand({ Bucket: bucket, CORSConfiguration: { CORSRules: hundred } }),
    );
    const put = the.s3.send(
      new PutBucketCorsCommand({ Bucket: bucket, CORSConfiguration: { CORSRules: [...hundred, rule(100)] } }),
    );
    await expectS3Error(put, 'InvalidRequest', 400);
    const got = await the.s3.send(new GetBucketCorsCommand({ Bucket: bucket }));
    expect(got.CORSRules?.map((r) => r.AllowedOrigins?.[0])).toEqual(hundred.map((r) => r.AllowedOrigins[0]));
  });
});

describe('object attributes that cannot fit answer 400, with nothing stored', () => {
  it('an 8 KB Content-Type is RequestHeaderSectionTooLarge', async () => {
    const key = 'typed';
    const put = the.s3.send(
      new PutObjectCommand({
        Bucket: bucket,
        Key: key,
        Body: 'x',
        ContentType: `text/${'a'.repeat(8 * 1024)}`,
      }),
    );
    await expectS3Error(put, 'RequestHeaderSectionTooLarge', 400);
    await expectS3Error(the.s3.send(new HeadObjectCommand({ Bucket: bucket, Key: key })), 'NotFound', 404);
    expect(await tempFiles()).toEqual([]);
  });

  it('metadata under 2 KB whose stored JSON does not fit is MetadataTooLarge', async () => {
    // 2000 bytes of quotes: within S3's 2 KB, but JSON doubles them past the xattr block.
    const key = 'quoted';
    const put = the.s3.send(
      new PutObjectCommand({ Bucket: bucket, Key: key, Body: 'x', Metadata: { q: '"'.repeat(2000) } }),
    );
    await expectS3Error(put, 'MetadataTooLarge', 400);
    await expectS3Error(the.s3.send(new HeadObjectCommand({ Bucket: bucket, Key: key })), 'NotFound', 404);
    expect(await tempFiles()).toEqual([]);
  });

  it('ten long multibyte tags on an object are stored exactly, in an overflow file', async () => {
    const key = 'tagged';
    await the.s3.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: 'x', Tagging: 'k=v' }));
    const TagSet = Array.from({ length: 10 }, (_, i) => ({
      Key: `${i}${'é'.repeat(127)}`,
      Value: '漢'.repeat(256),
    }));
    await the.s3.send(new PutObjectTaggingCommand({ Bucket: bucket, Key: key, Tagging: { TagSet } }));
    const tags = await the.s3.send(new GetObjectTaggingCommand({ Bucket: bucket, Key: key }));
    expect(tags.TagSet).toEqual(TagSet);
    // About 10 KB of JSON: kept in <bucket>/.sgwtmp/object-meta, the xattr names it.
    const files = await readdir(join(the.gw.root, bucket, '.sgwtmp', 'object-meta'));
    expect(files.filter((f) => f.startsWith('X-Amz-Tagging.'))).toHaveLength(1);
  });
});
