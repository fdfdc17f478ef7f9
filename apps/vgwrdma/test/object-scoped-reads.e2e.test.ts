// What is read from one object — its tags (GetObjectTagging), its checksum and size
// (GetObjectAttributes), its retention and legal hold — is decided by the object's own ACL and
// the policy, as GetObject is, on the built gateway (posix, --iam-dir, --versioning-dir, object
// lock). The attack: a grantee with only bucket READ (it may list the keys) is refused GET of a
// private object, yet read its tags, SHA-256, retention and legal hold. Control: a grantee the
// object's ACL gives READ reads them all, also by versionId.
import {
  CreateBucketCommand,
  GetObjectAttributesCommand,
  GetObjectCommand,
  GetObjectLegalHoldCommand,
  GetObjectRetentionCommand,
  GetObjectTaggingCommand,
  ListObjectsV2Command,
  PutBucketAclCommand,
  PutObjectCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { type IamScene, type IamUser, startIamScene } from '@vgwrdma/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ALICE: IamUser = { access: 'alice-key', secret: 'alice-secret', role: 'userplus' };
const BOB: IamUser = { access: 'bob-key', secret: 'bob-secret' };
const Bucket = 'scoped-reads';

async function errorName(p: Promise<unknown>): Promise<string> {
  return p.then(
    () => '',
    (e: { name?: string }) => e.name ?? 'Error',
  );
}

/** The four object-scoped reads (and their versionId forms), each answering '' or its error name. */
function objectReads(client: S3Client, Key: string, VersionId?: string) {
  const v = VersionId === undefined ? {} : { VersionId };
  return {
    tagging: () => errorName(client.send(new GetObjectTaggingCommand({ Bucket, Key, ...v }))),
    attributes: () =>
      errorName(
        client.send(
          new GetObjectAttributesCommand({ Bucket, Key, ...v, ObjectAttributes: ['Checksum', 'ObjectSize'] }),
        ),
      ),
    retention: () => errorName(client.send(new GetObjectRetentionCommand({ Bucket, Key, ...v }))),
    legalHold: () => errorName(client.send(new GetObjectLegalHoldCommand({ Bucket, Key, ...v }))),
  };
}

async function allReads(client: S3Client, Key: string, VersionId?: string): Promise<Record<string, string>> {
  const reads = objectReads(client, Key, VersionId);
  return {
    tagging: await reads.tagging(),
    attributes: await reads.attributes(),
    retention: await reads.retention(),
    legalHold: await reads.legalHold(),
  };
}

describe('object-scoped reads follow the object ACL', () => {
  let scene: IamScene;
  let alice: S3Client;
  let bob: S3Client;
  const versions: Record<string, string> = {};

  beforeAll(async () => {
    scene = await startIamScene({ users: [ALICE, BOB], versioning: true });
    alice = scene.client(ALICE);
    bob = scene.client(BOB);
    await alice.send(new CreateBucketCommand({ Bucket, ObjectLockEnabledForBucket: true }));
    // Bob may list the bucket (bucket READ), nothing more.
    await alice.send(
      new PutBucketAclCommand({
        Bucket,
        GrantRead: `id="${BOB.access}"`,
        GrantFullControl: `id="${ALICE.access}"`,
      }),
    );
    const locked = {
      Tagging: 'project=apollo',
      ChecksumAlgorithm: 'SHA256' as const,
      ObjectLockMode: 'GOVERNANCE' as const,
      ObjectLockRetainUntilDate: new Date(Date.now() + 86_400_000),
      ObjectLockLegalHoldStatus: 'ON' as const,
    };
    const priv = await alice.send(new PutObjectCommand({ Bucket, Key: 'private', Body: 'p', ...locked }));
    const shared = await alice.send(
      new PutObjectCommand({
        Bucket,
        Key: 'shared',
        Body: 's',
        ...locked,
        GrantRead: `id="${BOB.access}"`,
        GrantFullControl: `id="${ALICE.access}"`,
      }),
    );
    versions.private = priv.VersionId ?? '';
    versions.shared = shared.VersionId ?? '';
  });
  afterAll(() => scene?.stop());

  it('refuses a bucket-READ grantee every object-scoped read of a private object, also by versionId', async () => {
    // What bucket READ gives: the listing.
    const listed = await bob.send(new ListObjectsV2Command({ Bucket }));
    expect((listed.Contents ?? []).map((o) => o.Key)).toEqual(['private', 'shared']);
    expect(await errorName(bob.send(new GetObjectCommand({ Bucket, Key: 'private' })))).toBe('AccessDenied');
    // The attack: each of these answered 200 on the old code.
    const denied = {
      tagging: 'AccessDenied',
      attributes: 'AccessDenied',
      retention: 'AccessDenied',
      legalHold: 'AccessDenied',
    };
    expect(await allReads(bob, 'private')).toEqual(denied);
    expect(versions.private).not.toBe('');
    expect(await allReads(bob, 'private', versions.private)).toEqual(denied);
  });

  it('lets a grantee of the object’s READ read them, also by versionId, and the owner always', async () => {
    const allowed = { tagging: '', attributes: '', retention: '', legalHold: '' };
    expect(await allReads(bob, 'shared')).toEqual(allowed);
    expect(await allReads(bob, 'shared', versions.shared)).toEqual(allowed);
    expect(await allReads(alice, 'private')).toEqual(allowed);
    const tags = await bob.send(new GetObjectTaggingCommand({ Bucket, Key: 'shared' }));
    expect(tags.TagSet).toEqual([{ Key: 'project', Value: 'apollo' }]);
    const attrs = await bob.send(
      new GetObjectAttributesCommand({ Bucket, Key: 'shared', ObjectAttributes: ['Checksum', 'ObjectSize'] }),
    );
    expect(attrs.ObjectSize).toBe(1);
    expect(attrs.Checksum?.ChecksumSHA256).toBeDefined();
    expect((await bob.send(new GetObjectLegalHoldCommand({ Bucket, Key: 'shared' }))).LegalHold?.Status).toBe(
      'ON',
    );
    expect((await bob.send(new GetObjectRetentionCommand({ Bucket, Key: 'shared' }))).Retention?.Mode).toBe(
      'GOVERNANCE',
    );
  });
});
