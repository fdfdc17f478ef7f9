// Object ACLs on the built gateway (posix backend, --iam-dir, --versioning-dir), driven by
// @aws-sdk/client-s3: canned values, x-amz-grant-* headers and AccessControlPolicy bodies on
// Put/GetObjectAcl (also per version), ACLs given at PutObject / CopyObject /
// CreateMultipartUpload, bucket-owner-read and bucket-owner-full-control, the `acl` xattr beside
// the object's other attributes, enforcement across bucket ACL × object ACL, and
// BucketOwnerEnforced turning object ACLs off.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import {
  CompleteMultipartUploadCommand,
  CopyObjectCommand,
  CreateBucketCommand,
  CreateMultipartUploadCommand,
  GetObjectAclCommand,
  GetObjectCommand,
  type Grant,
  ListObjectsV2Command,
  PutBucketAclCommand,
  PutBucketVersioningCommand,
  PutObjectAclCommand,
  PutObjectCommand,
  type S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import type { GatewayProcess } from '@vgwrdma/test-kit';
import { sceneTest } from '@vgwrdma/test-kit/scene';
import { describe, expect, it } from 'vitest';
import { ALICE, ALL_USERS, BOB } from './helpers/acl-accounts.js';

async function errorName(p: Promise<unknown>): Promise<string> {
  return p.then(
    () => '',
    (e: { name?: string }) => e.name ?? 'Error',
  );
}

/** [ID or URI, Permission] of each grant, as a client sees them. */
function grantsOf(out: { Grants?: Grant[] | undefined }) {
  return (out.Grants ?? []).map((g) => [g.Grantee?.ID ?? g.Grantee?.URI, g.Permission]);
}

const test = sceneTest({ users: { alice: ALICE, bob: BOB }, versioning: true });

describe('object ACLs', () => {
  let gw: GatewayProcess;
  let alice: S3Client;
  let bob: S3Client;
  const anonGet = (path: string) => fetch(`${gw.url}/${path}`).then((r) => r.status);

  test.beforeAll(({ scene, clients }) => {
    gw = scene.gw;
    ({ alice, bob } = clients);
  });

  it('sets and reads object ACLs by canned value, grant headers and XML body, stored in the acl xattr', async () => {
    const Bucket = 'objacl';
    await alice.send(new CreateBucketCommand({ Bucket }));
    await alice.send(new PutObjectCommand({ Bucket, Key: 'k', Body: 'data', ACL: 'public-read' }));
    const acl = await alice.send(new GetObjectAclCommand({ Bucket, Key: 'k' }));
    expect([acl.Owner?.ID, acl.Owner?.DisplayName]).toEqual([ALICE.access, 'Alice L.']);
    // Group grants first, as Ceph RGW lists them.
    expect(grantsOf(acl)).toEqual([
      [ALL_USERS, 'READ'],
      [ALICE.access, 'FULL_CONTROL'],
    ]);
    // The group grantee is its URI alone, as S3 renders it.
    expect(acl.Grants?.[0]?.Grantee).toEqual({ Type: 'Group', URI: ALL_USERS });
    expect(await anonGet(`${Bucket}/k`)).toBe(200);

    // The ACL is an xattr beside the object's others, in the bucket ACL's JSON shape.
    const { stdout } = await promisify(execFile)('getfattr', [
      '--absolute-names',
      '--only-values',
      '-n',
      'user.acl',
      `${gw.root}/${Bucket}/k`,
    ]);
    expect(JSON.parse(stdout)).toEqual({
      Owner: ALICE.access,
      Grantees: [
        { Permission: 'READ', Access: ALL_USERS, Type: 'Group' },
        { Permission: 'FULL_CONTROL', Access: ALICE.access, Type: 'CanonicalUser' },
      ],
      Exact: true,
    });

    // Header grants replace the ACL: Bob (named by e-mail) may read, anonymous callers no more.
    await alice.send(
      new PutObjectAclCommand({
        Bucket,
        Key: 'k',
        GrantRead: 'emailAddress="bob@example.com"',
        GrantFullControl: `id="${ALICE.access}"`,
      }),
    );
    expect(await anonGet(`${Bucket}/k`)).toBe(403);
    expect(await (await bob.send(new GetObjectCommand({ Bucket, Key: 'k' }))).Body?.transformToString()).toBe(
      'data',
    );
    // READ is not READ_ACP.
    expect(await errorName(bob.send(new GetObjectAclCommand({ Bucket, Key: 'k' })))).toBe('AccessDenied');

    await alice.send(
      new PutObjectAclCommand({
        Bucket,
        Key: 'k',
        AccessControlPolicy: {
          Owner: { ID: ALICE.access },
          Grants: [
            { Grantee: { Type: 'CanonicalUser', ID: ALICE.access }, Permission: 'FULL_CONTROL' },
            { Grantee: { Type: 'CanonicalUser', ID: BOB.access }, Permission: 'READ_ACP' },
          ],
        },
      }),
    );
    expect(grantsOf(await bob.send(new GetObjectAclCommand({ Bucket, Key: 'k' })))).toContainEqual([
      BOB.access,
      'READ_ACP',
    ]);
    expect(await errorName(bob.send(new GetObjectCommand({ Bucket, Key: 'k' })))).toBe('AccessDenied');
    // Nor may he change it (no WRITE_ACP).
    expect(await errorName(bob.send(new PutObjectAclCommand({ Bucket, Key: 'k', ACL: 'public-read' })))).toBe(
      'AccessDenied',
    );

    // Grantees must exist.
    const bad = (GrantRead: string) =>
      alice.send(new PutObjectAclCommand({ Bucket, Key: 'k', GrantRead })).catch((e) => e);
    expect([(await bad('id="nobody"')).name, (await bad('id="nobody"')).$metadata.httpStatusCode]).toEqual([
      'InvalidArgument',
      400,
    ]);
    expect((await bad('emailAddress="nobody@example.com"')).name).toBe('UnresolvableGrantByEmailAddress');
    expect((await bad('uri="http://example.com/not-a-group"')).name).toBe('InvalidArgument');
  });

  it('lets AuthenticatedUsers read an object of a private bucket, but not anonymous callers', async () => {
    const Bucket = 'objacl-auth';
    await alice.send(new CreateBucketCommand({ Bucket }));
    await alice.send(new PutObjectCommand({ Bucket, Key: 'members', Body: 'm', ACL: 'authenticated-read' }));
    expect(await errorName(bob.send(new GetObjectCommand({ Bucket, Key: 'members' })))).toBe('');
    expect(await anonGet(`${Bucket}/members`)).toBe(403);
    // Reading its ACL is a separate grant, here to everyone.
    expect(await errorName(bob.send(new GetObjectAclCommand({ Bucket, Key: 'members' })))).toBe(
      'AccessDenied',
    );
    await alice.send(
      new PutObjectAclCommand({
        Bucket,
        Key: 'members',
        GrantReadACP: `uri="${ALL_USERS}"`,
        GrantFullControl: `id="${ALICE.access}"`,
      }),
    );
    expect(await anonGet(`${Bucket}/members?acl`)).toBe(200);
    expect(await anonGet(`${Bucket}/members`)).toBe(403);
  });

  it('keeps an ACL per version (versionId)', async () => {
    const Bucket = 'objacl-versions';
    await alice.send(new CreateBucketCommand({ Bucket }));
    await alice.send(
      new PutBucketVersioningCommand({ Bucket, VersioningConfiguration: { Status: 'Enabled' } }),
    );
    const v1 = (await alice.send(new PutObjectCommand({ Bucket, Key: 'v', Body: 'one' }))).VersionId;
    await alice.send(new PutObjectCommand({ Bucket, Key: 'v', Body: 'two' }));
    const put = await alice.send(
      new PutObjectAclCommand({ Bucket, Key: 'v', VersionId: v1, ACL: 'public-read' }),
    );
    expect(put.$metadata.httpStatusCode).toBe(200);
    const acl = await alice.send(new GetObjectAclCommand({ Bucket, Key: 'v', VersionId: v1 }));
    expect(grantsOf(acl)).toContainEqual([ALL_USERS, 'READ']);
    expect(grantsOf(await alice.send(new GetObjectAclCommand({ Bucket, Key: 'v' })))).toEqual([
      [ALICE.access, 'FULL_CONTROL'],
    ]);
    expect(await anonGet(`${Bucket}/v?versionId=${v1}`)).toBe(200);
    expect(await anonGet(`${Bucket}/v`)).toBe(403);
  });

  it('takes the ACL of CopyObject and CreateMultipartUpload, never the source’s', async () => {
    const Bucket = 'objacl-writes';
    await alice.send(new CreateBucketCommand({ Bucket }));
    await alice.send(new PutObjectCommand({ Bucket, Key: 'src', Body: 'source', ACL: 'public-read' }));
    await alice.send(new CopyObjectCommand({ Bucket, Key: 'plain-copy', CopySource: `${Bucket}/src` }));
    expect(await anonGet(`${Bucket}/plain-copy`)).toBe(403);
    await alice.send(
      new CopyObjectCommand({
        Bucket,
        Key: 'bob-copy',
        CopySource: `${Bucket}/src`,
        GrantRead: `id="${BOB.access}"`,
      }),
    );
    expect(await errorName(bob.send(new GetObjectCommand({ Bucket, Key: 'bob-copy' })))).toBe('');

    const { UploadId } = await alice.send(
      new CreateMultipartUploadCommand({ Bucket, Key: 'mp', ACL: 'public-read' }),
    );
    const part = await alice.send(
      new UploadPartCommand({ Bucket, Key: 'mp', UploadId, PartNumber: 1, Body: 'parts' }),
    );
    expect(await anonGet(`${Bucket}/mp`)).toBe(403); // nothing published yet
    await alice.send(
      new CompleteMultipartUploadCommand({
        Bucket,
        Key: 'mp',
        UploadId,
        MultipartUpload: { Parts: [{ PartNumber: 1, ETag: part.ETag }] },
      }),
    );
    expect(await anonGet(`${Bucket}/mp`)).toBe(200);
    expect(grantsOf(await alice.send(new GetObjectAclCommand({ Bucket, Key: 'mp' })))).toContainEqual([
      ALL_USERS,
      'READ',
    ]);
  });

  it('gives the bucket owner read or full control with bucket-owner-read / bucket-owner-full-control', async () => {
    const Bucket = 'dropbox';
    await alice.send(new CreateBucketCommand({ Bucket }));
    await alice.send(new PutBucketAclCommand({ Bucket, ACL: 'public-read-write' }));
    await bob.send(new PutObjectCommand({ Bucket, Key: 'r', Body: 'r', ACL: 'bucket-owner-read' }));
    await bob.send(new PutObjectCommand({ Bucket, Key: 'f', Body: 'f', ACL: 'bucket-owner-full-control' }));
    const r = await bob.send(new GetObjectAclCommand({ Bucket, Key: 'r' }));
    expect(r.Owner?.ID).toBe(BOB.access);
    expect(grantsOf(r)).toEqual([
      [BOB.access, 'FULL_CONTROL'],
      [ALICE.access, 'READ'],
    ]);
    expect(grantsOf(await bob.send(new GetObjectAclCommand({ Bucket, Key: 'f' })))).toEqual([
      [BOB.access, 'FULL_CONTROL'],
      [ALICE.access, 'FULL_CONTROL'],
    ]);
  });

  // What another authenticated user may do, for each bucket ACL × object ACL (as on S3: the
  // object ACL decides reading the object, the bucket ACL listing and writing).
  const ACLS = ['private', 'public-read', 'public-read-write'] as const;
  const combos = ACLS.flatMap((b) => ACLS.map((o) => [b, o] as const));
  it.each(combos)(
    'bucket %s × object %s: GET, PUT and list by another user',
    async (bucketAcl, objectAcl) => {
      const Bucket = `m-${bucketAcl}-${objectAcl}`;
      await alice.send(new CreateBucketCommand({ Bucket }));
      await alice.send(new PutBucketAclCommand({ Bucket, ACL: bucketAcl }));
      await alice.send(new PutObjectCommand({ Bucket, Key: 'foo', Body: 'foo' }));
      await alice.send(new PutObjectAclCommand({ Bucket, Key: 'foo', ACL: objectAcl }));
      await alice.send(new PutObjectCommand({ Bucket, Key: 'bar', Body: 'bar' })); // default: private
      const ok = (yes: boolean) => (yes ? '' : 'AccessDenied');
      expect(await errorName(bob.send(new GetObjectCommand({ Bucket, Key: 'foo' })))).toBe(
        ok(objectAcl !== 'private'),
      );
      expect(await errorName(bob.send(new GetObjectCommand({ Bucket, Key: 'bar' })))).toBe('AccessDenied');
      expect(await errorName(bob.send(new ListObjectsV2Command({ Bucket })))).toBe(
        ok(bucketAcl !== 'private'),
      );
      const writes = bucketAcl === 'public-read-write';
      expect(await errorName(bob.send(new PutObjectCommand({ Bucket, Key: 'new', Body: 'n' })))).toBe(
        ok(writes),
      );
      expect(await errorName(bob.send(new PutObjectCommand({ Bucket, Key: 'bar', Body: 'over' })))).toBe(
        ok(writes),
      );
    },
  );

  it('answers AccessControlListNotSupported for object ACLs under BucketOwnerEnforced', async () => {
    const Bucket = 'objacl-enforced';
    await alice.send(new CreateBucketCommand({ Bucket, ObjectOwnership: 'BucketOwnerEnforced' }));
    await alice.send(new PutObjectCommand({ Bucket, Key: 'k', Body: 'x' }));
    const res = await alice
      .send(new PutObjectAclCommand({ Bucket, Key: 'k', ACL: 'public-read' }))
      .catch((e) => e);
    expect([res.name, res.$metadata.httpStatusCode]).toEqual(['AccessControlListNotSupported', 400]);
    // Reading the ACL still works: the bucket owner holds FULL_CONTROL.
    expect(grantsOf(await alice.send(new GetObjectAclCommand({ Bucket, Key: 'k' })))).toEqual([
      [ALICE.access, 'FULL_CONTROL'],
    ]);
  });
});
