// Versioning and object lock through @aws-sdk/client-s3 against the gateway over a PosixBackend
// with a versioning directory: version ids and delete-marker headers, ListObjectVersions paging,
// retention and legal hold denying deletes, governance bypass.
import {
  CopyObjectCommand,
  CreateBucketCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectAttributesCommand,
  GetObjectCommand,
  GetObjectRetentionCommand,
  HeadObjectCommand,
  ListObjectVersionsCommand,
  PutBucketVersioningCommand,
  PutObjectCommand,
  PutObjectLegalHoldCommand,
  PutObjectRetentionCommand,
  type S3ServiceException,
} from '@aws-sdk/client-s3';
import { expectS3Error, rejectionOf } from '@vgwrdma/test-kit/scene';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestGateway } from './support/harness.js';
import { posixGateway } from './support/posix.js';

let gw: TestGateway;
const Bucket = 'versioned';
const Locked = 'locked';

beforeAll(async () => {
  gw = await posixGateway(Bucket);
  await gw.client.send(new CreateBucketCommand({ Bucket: Locked, ObjectLockEnabledForBucket: true }));
});
afterAll(async () => gw.close());

/** DeleteObject of one version in the object-lock bucket (with a governance bypass if asked). */
const deleteLocked = (Key: string, VersionId: string | undefined, BypassGovernanceRetention?: true) =>
  gw.client.send(
    new DeleteObjectCommand({
      Bucket: Locked,
      Key,
      VersionId,
      ...(BypassGovernanceRetention ? { BypassGovernanceRetention } : {}),
    }),
  );

describe('versioning over the SDK (posix)', () => {
  it('versioned PUT/GET/DELETE, delete markers and ListObjectVersions paging', async () => {
    await gw.client.send(
      new PutBucketVersioningCommand({ Bucket, VersioningConfiguration: { Status: 'Enabled' } }),
    );
    const v1 = (await gw.client.send(new PutObjectCommand({ Bucket, Key: 'k', Body: 'one' }))).VersionId;
    const v2 = (await gw.client.send(new PutObjectCommand({ Bucket, Key: 'k', Body: 'two' }))).VersionId;
    expect(v1).toMatch(/^[0-9A-Z]{26}$/);
    const old = await gw.client.send(new GetObjectCommand({ Bucket, Key: 'k', VersionId: v1 }));
    expect(await old.Body?.transformToString()).toBe('one');
    expect(old.VersionId).toBe(v1);
    expect((await gw.client.send(new HeadObjectCommand({ Bucket, Key: 'k' }))).VersionId).toBe(v2);

    const del = await gw.client.send(new DeleteObjectCommand({ Bucket, Key: 'k' }));
    expect(del.DeleteMarker).toBe(true);
    const missing = await expectS3Error(
      gw.client.send(new GetObjectCommand({ Bucket, Key: 'k' })),
      'NoSuchKey',
    );
    expect(missing.$response?.headers['x-amz-delete-marker']).toBe('true');
    await expectS3Error(
      gw.client.send(new GetObjectCommand({ Bucket, Key: 'k', VersionId: '01ARZ3NDEKTSV4RRFFQ69G5FAV' })),
      'NoSuchVersion',
    );

    const p1 = await gw.client.send(new ListObjectVersionsCommand({ Bucket, MaxKeys: 2 }));
    expect(p1.IsTruncated).toBe(true);
    expect(p1.DeleteMarkers?.map((d) => [d.VersionId, d.IsLatest])).toEqual([[del.VersionId, true]]);
    expect(p1.Versions?.map((v) => v.VersionId)).toEqual([v2]);
    const p2 = await gw.client.send(
      new ListObjectVersionsCommand({
        Bucket,
        MaxKeys: 2,
        KeyMarker: p1.NextKeyMarker,
        VersionIdMarker: p1.NextVersionIdMarker,
      }),
    );
    expect(p2.IsTruncated).toBe(false);
    expect(p2.Versions?.map((v) => [v.VersionId, v.IsLatest])).toEqual([[v1, false]]);

    const undo = await gw.client.send(
      new DeleteObjectCommand({ Bucket, Key: 'k', VersionId: del.VersionId }),
    );
    expect(undo.DeleteMarker).toBe(true);
    const back = await gw.client.send(new GetObjectCommand({ Bucket, Key: 'k' }));
    expect(await back.Body?.transformToString()).toBe('two');
  });

  it('object lock: retention and legal hold deny deleting a version; governance bypass works', async () => {
    const until = new Date(Date.now() + 3600_000);
    const put = await gw.client.send(
      new PutObjectCommand({
        Bucket: Locked,
        Key: 'c',
        Body: 'x',
        ObjectLockMode: 'COMPLIANCE',
        ObjectLockRetainUntilDate: until,
      }),
    );
    const head = await gw.client.send(new HeadObjectCommand({ Bucket: Locked, Key: 'c' }));
    expect(head.ObjectLockMode).toBe('COMPLIANCE');
    const denied = await expectS3Error(deleteLocked('c', put.VersionId), 'AccessDenied');
    expect(denied.message).toBe('Access Denied because object protected by object lock.');

    const g = await gw.client.send(new PutObjectCommand({ Bucket: Locked, Key: 'g', Body: 'x' }));
    await gw.client.send(
      new PutObjectRetentionCommand({
        Bucket: Locked,
        Key: 'g',
        VersionId: g.VersionId,
        Retention: { Mode: 'GOVERNANCE', RetainUntilDate: until },
      }),
    );
    const r = await gw.client.send(
      new GetObjectRetentionCommand({ Bucket: Locked, Key: 'g', VersionId: g.VersionId }),
    );
    expect(r.Retention?.Mode).toBe('GOVERNANCE');
    await expectS3Error(deleteLocked('g', g.VersionId), 'AccessDenied');
    await deleteLocked('g', g.VersionId, true);

    const h = await gw.client.send(
      new PutObjectCommand({ Bucket: Locked, Key: 'h', Body: 'x', ObjectLockLegalHoldStatus: 'ON' }),
    );
    await expectS3Error(deleteLocked('h', h.VersionId), 'AccessDenied');
    await gw.client.send(
      new PutObjectLegalHoldCommand({
        Bucket: Locked,
        Key: 'h',
        VersionId: h.VersionId,
        LegalHold: { Status: 'OFF' },
      }),
    );
    await deleteLocked('h', h.VersionId);
  });

  it('lock headers are validated; copy, attributes and DeleteObjects carry version ids', async () => {
    const both = await expectS3Error(
      gw.client.send(
        new PutObjectCommand({ Bucket: Locked, Key: 'm', Body: 'x', ObjectLockMode: 'GOVERNANCE' }),
      ),
      'InvalidRequest',
    );
    expect(both.message).toBe(
      'x-amz-object-lock-retain-until-date and x-amz-object-lock-mode must both be supplied',
    );
    const noLock = await rejectionOf<S3ServiceException>(
      gw.client.send(new PutObjectCommand({ Bucket, Key: 'm', Body: 'x', ObjectLockLegalHoldStatus: 'ON' })),
    );
    expect(noLock.message).toBe('Bucket is missing Object Lock Configuration');

    const v1 = (await gw.client.send(new PutObjectCommand({ Bucket, Key: 'src', Body: 'first' }))).VersionId;
    await gw.client.send(new PutObjectCommand({ Bucket, Key: 'src', Body: 'second' }));
    const copy = await gw.client.send(
      new CopyObjectCommand({ Bucket, Key: 'dst', CopySource: `${Bucket}/src?versionId=${v1}` }),
    );
    expect(copy.CopySourceVersionId).toBe(v1);
    expect(copy.VersionId).toMatch(/^[0-9A-Z]{26}$/);
    const attrs = await gw.client.send(
      new GetObjectAttributesCommand({ Bucket, Key: 'src', VersionId: v1, ObjectAttributes: ['ObjectSize'] }),
    );
    expect(attrs.ObjectSize).toBe(5);
    expect(attrs.VersionId).toBe(v1);

    const del = await gw.client.send(
      new DeleteObjectsCommand({
        Bucket,
        Delete: { Objects: [{ Key: 'src', VersionId: v1 }, { Key: 'dst' }] },
      }),
    );
    expect(del.Errors ?? []).toEqual([]);
    const byKey = Object.fromEntries((del.Deleted ?? []).map((d) => [d.Key, d]));
    expect(byKey.src?.VersionId).toBe(v1);
    expect(byKey.dst?.DeleteMarker).toBe(true);
    expect(byKey.dst?.DeleteMarkerVersionId).toMatch(/^[0-9A-Z]{26}$/);
  });
});
