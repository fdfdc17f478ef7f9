// Object lock: buckets created with lock get versioning, retention and legal hold protect
// versions from deletion, governance yields to the bypass flag, compliance to nothing.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acl, body, codeOf, ctx, type Fixture, fixture, OWNER, withBucket } from './helpers.js';

let f: Fixture;
const bucket = 'locked';
const future = () => new Date(Date.now() + 3600_000).toISOString();

beforeEach(async () => {
  f = await fixture({ versioningName: 'versions' });
  await f.backend.createBucket(ctx(), { bucket, owner: OWNER, acl: acl(), objectLockEnabled: true });
});
afterEach(() => f.cleanup());

async function putLocked(key: string, extra: object = {}): Promise<string> {
  const r = await f.backend.putObject(ctx(), { bucket, key, body: body('x'), ...extra });
  return r.versionId as string;
}

describe('object lock', () => {
  it('a bucket created with lock has versioning enabled that cannot be suspended', async () => {
    expect(await f.backend.getBucketVersioning(ctx(), bucket)).toBe('Enabled');
    expect(await codeOf(f.backend.putBucketVersioning(ctx(), bucket, 'Suspended'))).toBe(
      'InvalidBucketState',
    );
    expect((await f.backend.getObjectLockConfiguration(ctx(), bucket)).Enabled).toBe(true);
    // Once enabled, lock stays enabled.
    await f.backend.putObjectLockConfiguration(ctx(), bucket, { Enabled: false });
    expect((await f.backend.getObjectLockConfiguration(ctx(), bucket)).Enabled).toBe(true);
  });

  it('retention and legal hold need a lock-enabled bucket', async () => {
    const plain = await withBucket(f, 'plain');
    await f.backend.putObject(ctx(), { bucket: plain, key: 'k', body: body('x') });
    expect(await codeOf(f.backend.putObjectLegalHold(ctx(), { bucket: plain, key: 'k' }, true))).toBe(
      'InvalidRequest',
    );
    // Reading them there is refused the same way (s3-tests: get_object_retention on a plain bucket).
    expect(await codeOf(f.backend.getObjectRetention(ctx(), { bucket: plain, key: 'k' }))).toBe(
      'InvalidRequest',
    );
    expect(await codeOf(f.backend.getObjectLegalHold(ctx(), { bucket: plain, key: 'k' }))).toBe(
      'InvalidRequest',
    );
    expect(
      await codeOf(f.backend.putObject(ctx(), { bucket: plain, key: 'k', body: body('x'), legalHold: true })),
    ).toBe('InvalidRequest');
  });

  it('compliance retention denies deleting the version; a delete marker is still allowed', async () => {
    const v = await putLocked('k', { retention: { Mode: 'COMPLIANCE', RetainUntilDate: future() } });
    const head = await f.backend.headObject(ctx(), { bucket, key: 'k' });
    expect(head.retention?.Mode).toBe('COMPLIANCE');
    const err = await f.backend
      .deleteObject(ctx(), { bucket, key: 'k', versionId: v, bypassGovernanceRetention: true })
      .catch((e: unknown) => e);
    expect((err as { code: string; message: string }).code).toBe('AccessDenied');
    expect((err as Error).message).toBe('Access Denied because object protected by object lock.');
    expect((await f.backend.deleteObject(ctx(), { bucket, key: 'k' })).deleteMarker).toBe(true);
    // Compliance cannot be shortened.
    expect(
      await codeOf(
        f.backend.putObjectRetention(
          ctx(),
          { bucket, key: 'k', versionId: v },
          { Mode: 'COMPLIANCE', RetainUntilDate: new Date(Date.now() + 60_000).toISOString() },
          true,
        ),
      ),
    ).toBe('AccessDenied');
  });

  it('governance retention yields to the bypass flag', async () => {
    const v = await putLocked('g');
    await f.backend.putObjectRetention(
      ctx(),
      { bucket, key: 'g', versionId: v },
      { Mode: 'GOVERNANCE', RetainUntilDate: future() },
      false,
    );
    expect(await codeOf(f.backend.deleteObject(ctx(), { bucket, key: 'g', versionId: v }))).toBe(
      'AccessDenied',
    );
    await f.backend.deleteObject(ctx(), { bucket, key: 'g', versionId: v, bypassGovernanceRetention: true });
    expect(await codeOf(f.backend.headObject(ctx(), { bucket, key: 'g' }))).toBe('NoSuchKey');
  });

  it('legal hold denies deletion until released; default retention applies to new objects', async () => {
    const v = await putLocked('h', { legalHold: true });
    expect(await f.backend.getObjectLegalHold(ctx(), { bucket, key: 'h', versionId: v })).toBe(true);
    expect(
      await codeOf(
        f.backend.deleteObject(ctx(), { bucket, key: 'h', versionId: v, bypassGovernanceRetention: true }),
      ),
    ).toBe('AccessDenied');
    await f.backend.putObjectLegalHold(ctx(), { bucket, key: 'h', versionId: v }, false);
    await f.backend.deleteObject(ctx(), { bucket, key: 'h', versionId: v });
    await f.backend.putObjectLockConfiguration(ctx(), bucket, {
      Enabled: true,
      DefaultRetention: { Mode: 'GOVERNANCE', Days: 1 },
    });
    const d = await putLocked('d');
    const r = await f.backend.getObjectRetention(ctx(), { bucket, key: 'd', versionId: d });
    expect(r.Mode).toBe('GOVERNANCE');
    expect(Date.parse(r.RetainUntilDate)).toBeGreaterThan(Date.now() + 23 * 3600_000);
    expect(
      await codeOf(
        putLocked('p', {
          retention: { Mode: 'GOVERNANCE', RetainUntilDate: new Date(Date.now() - 1000).toISOString() },
        }),
      ),
    ).toBe('InvalidArgument');
  });
});
