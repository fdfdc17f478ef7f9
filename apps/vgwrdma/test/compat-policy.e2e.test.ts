// S3 compatibility of bucket policies on the built gateway, with a second user (users.json) and
// @aws-sdk/client-s3: NotPrincipal, the ...IfExists operators, s3:RequestObjectTag/<key> and
// s3:RequestObjectTagKeys (with ForAllValues/ForAnyValue) on PutObject, s3:ExistingObjectTag on
// reads, and the multipart actions on object resources.
import {
  AbortMultipartUploadCommand,
  CreateBucketCommand,
  CreateMultipartUploadCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListPartsCommand,
  PutObjectCommand,
  PutObjectTaggingCommand,
  type S3Client,
  type S3ServiceException,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import {
  allow,
  bucketArn,
  objectsArn,
  type PolicyStatement,
  putBucketPolicy,
  ROOT_CREDENTIALS,
} from '@vgwrdma/test-kit';
import { sceneTest } from '@vgwrdma/test-kit/scene';
import { describe, expect, it } from 'vitest';

const BOB = { access: 'policy-bob', secret: 'policy-bob-secret' };
const test = sceneTest({ users: { bob: BOB } });

/** 'ok', or the error name of a refused request. */
async function outcome(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'ok';
  } catch (err) {
    const e = err as S3ServiceException;
    // HEAD answers carry no body: the SDK names them by status.
    return e.$metadata?.httpStatusCode === 403 ? 'AccessDenied' : e.name;
  }
}

describe('vgwrdma S3 compatibility: bucket policy features', { timeout: 120_000 }, () => {
  let root: S3Client;
  let bob: S3Client;

  const policy = (Bucket: string, statements: readonly PolicyStatement[]) =>
    putBucketPolicy(root, Bucket, statements);
  const BOB_ONLY = { AWS: BOB.access };

  test.beforeAll(({ s3, clients }) => {
    root = s3;
    bob = clients.bob;
  });

  it('NotPrincipal: a Deny applies to everyone but the principals it names', async () => {
    const Bucket = 'not-principal';
    await root.send(new CreateBucketCommand({ Bucket }));
    for (const Key of ['open', 'secret-1']) await root.send(new PutObjectCommand({ Bucket, Key, Body: Key }));
    await policy(Bucket, [
      allow('*', 's3:GetObject', objectsArn(Bucket)),
      {
        Effect: 'Deny',
        NotPrincipal: { AWS: [ROOT_CREDENTIALS.access] },
        Action: 's3:GetObject',
        Resource: objectsArn(Bucket, 'secret-'),
      },
    ]);
    expect(await outcome(bob.send(new GetObjectCommand({ Bucket, Key: 'open' })))).toBe('ok');
    expect(await outcome(bob.send(new GetObjectCommand({ Bucket, Key: 'secret-1' })))).toBe('AccessDenied');
    expect(await outcome(root.send(new GetObjectCommand({ Bucket, Key: 'secret-1' })))).toBe('ok');
  });

  it('...IfExists: a missing key satisfies the condition, a present one is compared', async () => {
    const Bucket = 'if-exists';
    await root.send(new CreateBucketCommand({ Bucket }));
    await policy(Bucket, [
      allow(BOB_ONLY, 's3:PutObject', objectsArn(Bucket), {
        StringEqualsIfExists: { 's3:x-amz-storage-class': 'STANDARD' },
      }),
    ]);
    const put = (extra: { StorageClass?: 'STANDARD' | 'REDUCED_REDUNDANCY' }) =>
      outcome(bob.send(new PutObjectCommand({ Bucket, Key: 'k', Body: 'x', ...extra })));
    expect(await put({})).toBe('ok');
    expect(await put({ StorageClass: 'STANDARD' })).toBe('ok');
    expect(await put({ StorageClass: 'REDUCED_REDUNDANCY' })).toBe('AccessDenied');
  });

  it('s3:RequestObjectTag/<key> decides PutObject by the tags it sends', async () => {
    const Bucket = 'request-tag';
    await root.send(new CreateBucketCommand({ Bucket }));
    await policy(Bucket, [
      // Tags on a write need s3:PutObjectTagging too, as in AWS's own examples.
      allow('*', ['s3:PutObject', 's3:PutObjectTagging'], objectsArn(Bucket), {
        StringEquals: { 's3:RequestObjectTag/security': 'public' },
      }),
    ]);
    const put = (Tagging?: string) =>
      outcome(
        bob.send(new PutObjectCommand({ Bucket, Key: 'k', Body: 'x', ...(Tagging ? { Tagging } : {}) })),
      );
    expect(await put('security=public&team=a')).toBe('ok');
    expect(await put('security=private')).toBe('AccessDenied');
    expect(await put()).toBe('AccessDenied');
  });

  it('s3:RequestObjectTagKeys with ForAllValues and ForAnyValue', async () => {
    const Bucket = 'request-tag-keys';
    await root.send(new CreateBucketCommand({ Bucket }));
    await policy(Bucket, [
      // Tags on a write need s3:PutObjectTagging too, as in AWS's own examples.
      allow(BOB_ONLY, ['s3:PutObject', 's3:PutObjectTagging'], objectsArn(Bucket), {
        'ForAllValues:StringEquals': { 's3:RequestObjectTagKeys': ['project', 'team'] },
        'ForAnyValue:StringEquals': { 's3:RequestObjectTagKeys': ['project'] },
      }),
    ]);
    const put = (Tagging: string) =>
      outcome(bob.send(new PutObjectCommand({ Bucket, Key: 'k', Body: 'x', Tagging })));
    expect(await put('project=x')).toBe('ok');
    expect(await put('project=x&team=y')).toBe('ok');
    expect(await put('team=y')).toBe('AccessDenied'); // no project key
    expect(await put('project=x&cost=1')).toBe('AccessDenied'); // cost is not allowed
  });

  it('s3:ExistingObjectTag/<key> decides reads by the tags the object has', async () => {
    const Bucket = 'existing-tag';
    await root.send(new CreateBucketCommand({ Bucket }));
    for (const Key of ['publictag', 'privatetag', 'untagged'])
      await root.send(new PutObjectCommand({ Bucket, Key, Body: Key }));
    const tag = (Key: string, Value: string) =>
      root.send(
        new PutObjectTaggingCommand({
          Bucket,
          Key,
          Tagging: {
            TagSet: [
              { Key: 'security', Value },
              { Key: 'foo', Value: 'bar' },
            ],
          },
        }),
      );
    await tag('publictag', 'public');
    await tag('privatetag', 'private');
    await policy(Bucket, [
      allow('*', 's3:GetObject', objectsArn(Bucket), {
        StringEquals: { 's3:ExistingObjectTag/security': 'public' },
      }),
    ]);
    expect(await outcome(bob.send(new GetObjectCommand({ Bucket, Key: 'publictag' })))).toBe('ok');
    expect(await outcome(bob.send(new HeadObjectCommand({ Bucket, Key: 'publictag' })))).toBe('ok');
    for (const Key of ['privatetag', 'untagged'])
      expect(await outcome(bob.send(new GetObjectCommand({ Bucket, Key })))).toBe('AccessDenied');
    // Re-tagging the object changes the answer.
    await tag('privatetag', 'public');
    expect(await outcome(bob.send(new GetObjectCommand({ Bucket, Key: 'privatetag' })))).toBe('ok');
  });

  it('accepts and enforces s3:ListMultipartUploadParts and s3:AbortMultipartUpload on objects', async () => {
    const Bucket = 'mp-actions';
    await root.send(new CreateBucketCommand({ Bucket }));
    await policy(Bucket, [
      allow(
        BOB_ONLY,
        ['s3:PutObject', 's3:ListMultipartUploadParts', 's3:AbortMultipartUpload'],
        objectsArn(Bucket),
      ),
      allow(BOB_ONLY, ['s3:ListBucketMultipartUploads'], bucketArn(Bucket)),
    ]);
    const { UploadId } = await bob.send(new CreateMultipartUploadCommand({ Bucket, Key: 'k' }));
    await bob.send(new UploadPartCommand({ Bucket, Key: 'k', UploadId, PartNumber: 1, Body: 'part' }));
    const parts = await bob.send(new ListPartsCommand({ Bucket, Key: 'k', UploadId }));
    expect(parts.Parts?.map((p) => p.PartNumber)).toEqual([1]);
    expect(await outcome(bob.send(new AbortMultipartUploadCommand({ Bucket, Key: 'k', UploadId })))).toBe(
      'ok',
    );

    // Without them, the same calls are refused.
    await policy(Bucket, [allow(BOB_ONLY, 's3:PutObject', objectsArn(Bucket))]);
    const second = await bob.send(new CreateMultipartUploadCommand({ Bucket, Key: 'k' }));
    const ref = { Bucket, Key: 'k', UploadId: second.UploadId };
    expect(await outcome(bob.send(new ListPartsCommand(ref)))).toBe('AccessDenied');
    expect(await outcome(bob.send(new AbortMultipartUploadCommand(ref)))).toBe('AccessDenied');
  });
});
