// The built gateway with --iam-dir and --versioning-dir, attacked by a plain user (Bob) whose
// bucket policy allows GetObject/PutObject/DeleteObject but not the version and object-lock
// permissions: reading, copying and deleting old versions, bypassing governance retention, and
// writing objects with retention or a legal hold (also by a POST form) must each be evaluated as
// the action S3 evaluates (s3:GetObjectVersion, s3:DeleteObjectVersion, s3:BypassGovernanceRetention,
// s3:PutObjectRetention, s3:PutObjectLegalHold) and refused with nothing changed. A copy reads
// its source under the source's tag-conditioned Denies, with the source version's tags.
import {
  AbortMultipartUploadCommand,
  CopyObjectCommand,
  CreateBucketCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  GetObjectTaggingCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectVersionsCommand,
  ListPartsCommand,
  PutBucketPolicyCommand,
  PutBucketVersioningCommand,
  PutObjectCommand,
  PutObjectRetentionCommand,
  type S3Client,
  UploadPartCopyCommand,
} from '@aws-sdk/client-s3';
import { createPresignedPost } from '@aws-sdk/s3-presigned-post';
import type { IamUser } from '@vgwrdma/test-kit';
import { sceneTest } from '@vgwrdma/test-kit/scene';
import { describe, expect, it } from 'vitest';

const ALICE: IamUser = { access: 'alice-key', secret: 'alice-secret', role: 'userplus' };
const BOB: IamUser = { access: 'bob-key', secret: 'bob-secret' };
const LOCKED_MESSAGE = 'Access Denied because object protected by object lock.';
/** The POST form field for each SDK lock parameter. */
const LOCK_FIELDS = {
  ObjectLockMode: 'x-amz-object-lock-mode',
  ObjectLockRetainUntilDate: 'x-amz-object-lock-retain-until-date',
  ObjectLockLegalHoldStatus: 'x-amz-object-lock-legal-hold',
} as const;

/** The failed call's error name and HTTP status ('' and 200 when it succeeded). */
async function outcome(p: Promise<unknown>): Promise<[string, number]> {
  try {
    await p;
    return ['', 200];
  } catch (err) {
    const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
    return [e.name ?? 'Error', e.$metadata?.httpStatusCode ?? 0];
  }
}
const DENIED: [string, number] = ['AccessDenied', 403];

function statement(effect: 'Allow' | 'Deny', action: string[], resource: string, extra: object = {}) {
  return { Effect: effect, Principal: { AWS: [BOB.access] }, Action: action, Resource: resource, ...extra };
}
const policy = (...Statement: object[]) => JSON.stringify({ Version: '2012-10-17', Statement });

const test = sceneTest({ users: { alice: ALICE, bob: BOB }, versioning: true });

describe('vgwrdma authorization of versions, object lock and copy sources', { timeout: 60_000 }, () => {
  let root: S3Client;
  let alice: S3Client;
  let bob: S3Client;

  test.beforeAll(({ s3, clients }) => {
    root = s3;
    ({ alice, bob } = clients);
  });

  /** Alice's versioned bucket with `doc` written twice; answers the two version ids. */
  async function versionedBucket(Bucket: string, lock = false): Promise<[string, string]> {
    await alice.send(new CreateBucketCommand({ Bucket, ObjectLockEnabledForBucket: lock }));
    if (!lock)
      await alice.send(
        new PutBucketVersioningCommand({ Bucket, VersioningConfiguration: { Status: 'Enabled' } }),
      );
    const put = async (Body: string, Tagging?: string) =>
      (await alice.send(new PutObjectCommand({ Bucket, Key: 'doc', Body, ...(Tagging ? { Tagging } : {}) })))
        .VersionId ?? '';
    return [await put('old secret', 'class=secret'), await put('current')];
  }
  /** Bob's POST object form (signed policy naming `Fields`): status and error code. */
  async function postForm(Bucket: string, Key: string, Fields: Record<string, string>) {
    const { url, fields } = await createPresignedPost(bob as never, { Bucket, Key, Fields });
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    form.append('file', new Blob(['x']), Key);
    const res = await fetch(url, { method: 'POST', body: form });
    return [res.status, /<Code>([^<]*)<\/Code>/.exec(await res.text())?.[1]];
  }
  const versionsOf = async (Bucket: string, Key: string) =>
    ((await root.send(new ListObjectVersionsCommand({ Bucket, Prefix: Key }))).Versions ?? [])
      .filter((v) => v.Key === Key)
      .map((v) => v.VersionId);

  it('reads, copies and deletes an old version only with the *Version permissions', async () => {
    const Bucket = 'versions';
    const [v1, v2] = await versionedBucket(Bucket);
    const allowed = ['s3:GetObject', 's3:PutObject', 's3:DeleteObject', 's3:GetObjectTagging'];
    const versionActions = ['s3:GetObjectVersion', 's3:DeleteObjectVersion', 's3:GetObjectVersionTagging'];
    await alice.send(
      new PutBucketPolicyCommand({
        Bucket,
        Policy: policy(
          statement('Allow', allowed, `arn:aws:s3:::${Bucket}/*`),
          statement('Deny', versionActions, `arn:aws:s3:::${Bucket}/*`),
        ),
      }),
    );
    const current = await bob.send(new GetObjectCommand({ Bucket, Key: 'doc' }));
    expect(await current.Body?.transformToString()).toBe('current');

    // Reads of the old version: GET, HEAD, tagging.
    expect(await outcome(bob.send(new GetObjectCommand({ Bucket, Key: 'doc', VersionId: v1 })))).toEqual(
      DENIED,
    );
    expect((await outcome(bob.send(new HeadObjectCommand({ Bucket, Key: 'doc', VersionId: v1 }))))[1]).toBe(
      403,
    );
    expect(
      await outcome(bob.send(new GetObjectTaggingCommand({ Bucket, Key: 'doc', VersionId: v1 }))),
    ).toEqual(DENIED);

    // Copies of the old version: CopyObject and UploadPartCopy; nothing lands.
    const CopySource = `${Bucket}/doc?versionId=${v1}`;
    expect(await outcome(bob.send(new CopyObjectCommand({ Bucket, Key: 'stolen', CopySource })))).toEqual(
      DENIED,
    );
    expect(await versionsOf(Bucket, 'stolen')).toEqual([]);
    const { UploadId } = await bob.send(new CreateMultipartUploadCommand({ Bucket, Key: 'stolen-mp' }));
    const partCopy = bob.send(
      new UploadPartCopyCommand({ Bucket, Key: 'stolen-mp', UploadId, PartNumber: 1, CopySource }),
    );
    expect(await outcome(partCopy)).toEqual(DENIED);
    expect(
      (await alice.send(new ListPartsCommand({ Bucket, Key: 'stolen-mp', UploadId }))).Parts ?? [],
    ).toEqual([]);
    await alice.send(new AbortMultipartUploadCommand({ Bucket, Key: 'stolen-mp', UploadId }));

    // Deletes of a version, alone and inside DeleteObjects; both versions survive.
    expect(await outcome(bob.send(new DeleteObjectCommand({ Bucket, Key: 'doc', VersionId: v1 })))).toEqual(
      DENIED,
    );
    const batch = await bob.send(
      new DeleteObjectsCommand({ Bucket, Delete: { Objects: [{ Key: 'doc', VersionId: v2 }] } }),
    );
    expect([batch.Deleted ?? [], batch.Errors?.map((e) => [e.Key, e.VersionId, e.Code])]).toEqual([
      [],
      [['doc', v2, 'AccessDenied']],
    ]);
    expect(await versionsOf(Bucket, 'doc')).toEqual([v2, v1]);

    // The owner and the root account are not limited by a Deny naming Bob.
    const own = await alice.send(new GetObjectCommand({ Bucket, Key: 'doc', VersionId: v1 }));
    expect(await own.Body?.transformToString()).toBe('old secret');
    await root.send(new CopyObjectCommand({ Bucket, Key: 'by-root', CopySource }));

    // Granted the permission, Bob reads and copies the version: the refusals above were that permission.
    await alice.send(
      new PutBucketPolicyCommand({
        Bucket,
        Policy: policy(statement('Allow', [...allowed, ...versionActions], `arn:aws:s3:::${Bucket}/*`)),
      }),
    );
    const old = await bob.send(new GetObjectCommand({ Bucket, Key: 'doc', VersionId: v1 }));
    expect(await old.Body?.transformToString()).toBe('old secret');
    await bob.send(new CopyObjectCommand({ Bucket, Key: 'copied', CopySource }));
    expect(await versionsOf(Bucket, 'copied')).toHaveLength(1);
  });

  /**
   * Alice's object-lock bucket: `doc` v1 under GOVERNANCE retention for an hour, and a policy
   * giving Bob everything on objects but the bypass and the lock settings.
   */
  async function lockedBucket(Bucket: string): Promise<{ v1: string; until: Date }> {
    const [v1] = await versionedBucket(Bucket, true);
    const until = new Date(Date.now() + 3_600_000);
    await alice.send(
      new PutObjectRetentionCommand({
        Bucket,
        Key: 'doc',
        VersionId: v1,
        Retention: { Mode: 'GOVERNANCE', RetainUntilDate: until },
      }),
    );
    await alice.send(
      new PutBucketPolicyCommand({
        Bucket,
        Policy: policy(
          statement('Allow', ['s3:*'], `arn:aws:s3:::${Bucket}/*`),
          statement(
            'Deny',
            ['s3:BypassGovernanceRetention', 's3:PutObjectRetention', 's3:PutObjectLegalHold'],
            `arn:aws:s3:::${Bucket}/*`,
          ),
        ),
      }),
    );
    return { v1, until };
  }

  it('bypasses governance retention only with s3:BypassGovernanceRetention', async () => {
    const Bucket = 'locked';
    const { v1 } = await lockedBucket(Bucket);

    // Governance bypass: on DeleteObject, DeleteObjects and PutObjectRetention.
    const bypassDelete = bob.send(
      new DeleteObjectCommand({ Bucket, Key: 'doc', VersionId: v1, BypassGovernanceRetention: true }),
    );
    expect(await outcome(bypassDelete)).toEqual(DENIED);
    const batch = await bob.send(
      new DeleteObjectsCommand({
        Bucket,
        BypassGovernanceRetention: true,
        Delete: { Objects: [{ Key: 'doc', VersionId: v1 }] },
      }),
    );
    expect(batch.Errors?.map((e) => e.Code)).toEqual(['AccessDenied']);
    const shorten = bob.send(
      new PutObjectRetentionCommand({
        Bucket,
        Key: 'doc',
        VersionId: v1,
        BypassGovernanceRetention: true,
        Retention: { Mode: 'GOVERNANCE', RetainUntilDate: new Date(Date.now() + 60_000) },
      }),
    );
    expect(await outcome(shorten)).toEqual(DENIED);
    expect(await versionsOf(Bucket, 'doc')).toContain(v1);
    const kept = await root.send(new HeadObjectCommand({ Bucket, Key: 'doc', VersionId: v1 }));
    expect(kept.ObjectLockMode).toBe('GOVERNANCE');
    expect(kept.ObjectLockRetainUntilDate?.getTime()).toBeGreaterThan(Date.now() + 1_800_000);
    // Without the bypass header the lock itself refuses (Bob may delete versions).
    const plain = await bob
      .send(new DeleteObjectCommand({ Bucket, Key: 'doc', VersionId: v1 }))
      .catch((e: unknown) => e);
    expect(plain).toMatchObject({ name: 'AccessDenied', message: LOCKED_MESSAGE });

    // The bucket owner bypasses (no Deny names Alice).
    await alice.send(
      new DeleteObjectCommand({ Bucket, Key: 'doc', VersionId: v1, BypassGovernanceRetention: true }),
    );
    expect(await versionsOf(Bucket, 'doc')).not.toContain(v1);
  });

  it('writes objects with retention or a legal hold only with s3:PutObjectRetention / s3:PutObjectLegalHold', async () => {
    const Bucket = 'locked-writes';
    const { until } = await lockedBucket(Bucket);
    // Lock settings on new objects: PutObject, CopyObject, CreateMultipartUpload; nothing stored.
    const compliance = { ObjectLockMode: 'COMPLIANCE', ObjectLockRetainUntilDate: until } as const;
    const hold = { ObjectLockLegalHoldStatus: 'ON' } as const;
    for (const lock of [compliance, hold]) {
      expect(
        await outcome(bob.send(new PutObjectCommand({ Bucket, Key: 'pinned', Body: 'x', ...lock }))),
      ).toEqual(DENIED);
      const copy = bob.send(
        new CopyObjectCommand({ Bucket, Key: 'pinned', CopySource: `${Bucket}/doc`, ...lock }),
      );
      expect(await outcome(copy)).toEqual(DENIED);
      const create = bob.send(new CreateMultipartUploadCommand({ Bucket, Key: 'pinned', ...lock }));
      expect(await outcome(create)).toEqual(DENIED);
    }
    // A browser form (POST object) carries the same settings as fields.
    for (const lock of [compliance, hold]) {
      const fields = Object.entries(lock).map(([k, v]) => [
        LOCK_FIELDS[k as keyof typeof LOCK_FIELDS],
        v instanceof Date ? v.toISOString() : v,
      ]);
      expect(await postForm(Bucket, 'pinned', Object.fromEntries(fields))).toEqual([403, 'AccessDenied']);
    }
    expect(await versionsOf(Bucket, 'pinned')).toEqual([]);
    expect((await root.send(new ListMultipartUploadsCommand({ Bucket }))).Uploads ?? []).toEqual([]);

    // Plain writes stay open to Bob, by PUT and by form.
    await bob.send(new PutObjectCommand({ Bucket, Key: 'plain', Body: 'x' }));
    expect(await postForm(Bucket, 'plain-form', {})).toEqual([204, undefined]);
    expect(await versionsOf(Bucket, 'plain')).toHaveLength(1);
    expect(await versionsOf(Bucket, 'plain-form')).toHaveLength(1);
  });

  it('refuses copies of an object a tag-conditioned Deny hides, by the source version’s tags', async () => {
    const Bucket = 'tagged';
    const [v1, v2] = await versionedBucket(Bucket); // v1 tagged class=secret, v2 untagged
    await alice.send(new PutObjectCommand({ Bucket, Key: 'plan', Body: 'plan', Tagging: 'class=secret' }));
    const secret = { StringEquals: { 's3:ExistingObjectTag/class': 'secret' } };
    const reads = ['s3:GetObject', 's3:GetObjectVersion'];
    await alice.send(
      new PutBucketPolicyCommand({
        Bucket,
        Policy: policy(
          statement('Allow', [...reads, 's3:PutObject'], `arn:aws:s3:::${Bucket}/*`),
          statement('Deny', reads, `arn:aws:s3:::${Bucket}/*`, { Condition: secret }),
        ),
      }),
    );
    expect(await outcome(bob.send(new GetObjectCommand({ Bucket, Key: 'plan' })))).toEqual(DENIED);

    const copy = (CopySource: string) => bob.send(new CopyObjectCommand({ Bucket, Key: 'loot', CopySource }));
    expect(await outcome(copy(`${Bucket}/plan`))).toEqual(DENIED);
    expect(await outcome(copy(`${Bucket}/doc?versionId=${v1}`))).toEqual(DENIED);
    const { UploadId } = await bob.send(new CreateMultipartUploadCommand({ Bucket, Key: 'loot-mp' }));
    for (const CopySource of [`${Bucket}/plan`, `${Bucket}/doc?versionId=${v1}`]) {
      const part = bob.send(
        new UploadPartCopyCommand({ Bucket, Key: 'loot-mp', UploadId, PartNumber: 1, CopySource }),
      );
      expect(await outcome(part)).toEqual(DENIED);
    }
    expect(
      (await alice.send(new ListPartsCommand({ Bucket, Key: 'loot-mp', UploadId }))).Parts ?? [],
    ).toEqual([]);
    expect(await versionsOf(Bucket, 'loot')).toEqual([]);

    // Untagged sources (the current version of doc) copy as before.
    await copy(`${Bucket}/doc?versionId=${v2}`);
    await bob.send(
      new UploadPartCopyCommand({
        Bucket,
        Key: 'loot-mp',
        UploadId,
        PartNumber: 1,
        CopySource: `${Bucket}/doc`,
      }),
    );
    const loot = await bob.send(new GetObjectCommand({ Bucket, Key: 'loot' }));
    expect(await loot.Body?.transformToString()).toBe('current');
    await alice.send(new AbortMultipartUploadCommand({ Bucket, Key: 'loot-mp', UploadId }));
  });
});
