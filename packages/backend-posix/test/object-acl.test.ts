// Object ACLs and the public access block in the posix backend: the `acl` attribute of an object
// (set at PutObject, CopyObject and multipart initiation; replaced by putObjectAcl, per version),
// an object without one answering the bucket owner's FULL_CONTROL as `inherited`, and the
// bucket's `vgwrdma-public-access-block` attribute.
import { join } from 'node:path';
import type { ObjectAclOutput } from '@vgwrdma/backend-contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { xattrGet } from '../src/meta/libc-xattr.js';
import { body, codeOf, ctx, type Fixture, fixture, OWNER, withBucket } from './helpers.js';
import { complete, sendParts, startUpload } from './parts.js';

const readerAcl = (reader: string): ObjectAclOutput => ({
  owner: { id: OWNER },
  grants: [
    { grantee: { type: 'CanonicalUser', id: OWNER }, permission: 'FULL_CONTROL' },
    { grantee: { type: 'CanonicalUser', id: reader }, permission: 'READ' },
  ],
});

describe('object ACLs (posix)', () => {
  let f: Fixture;
  let bucket: string;
  beforeEach(async () => {
    f = await fixture({ versioningName: 'versions' });
    bucket = await withBucket(f);
  });
  afterEach(() => f.cleanup());

  it('stores the ACL given at PutObject in the acl attribute and reads it back', async () => {
    await f.backend.putObject(ctx(), { bucket, key: 'k', body: body('x'), acl: readerAcl('bob') });
    const stored = JSON.parse(xattrGet(join(f.root, bucket, 'k'), 'user.acl')?.toString() ?? '');
    expect(stored).toEqual({
      Owner: OWNER,
      Grantees: [
        { Permission: 'FULL_CONTROL', Access: OWNER, Type: 'CanonicalUser' },
        { Permission: 'READ', Access: 'bob', Type: 'CanonicalUser' },
      ],
      Exact: true,
    });
    expect(await f.backend.getObjectAcl(ctx(), { bucket, key: 'k' })).toEqual(readerAcl('bob'));
  });

  it('answers the bucket owner’s FULL_CONTROL, inherited, for an object without one', async () => {
    await f.backend.putObject(ctx(), { bucket, key: 'old', body: body('x') });
    expect(await f.backend.getObjectAcl(ctx(), { bucket, key: 'old' })).toEqual({
      owner: { id: OWNER },
      grants: [{ grantee: { type: 'CanonicalUser', id: OWNER }, permission: 'FULL_CONTROL' }],
      inherited: true,
    });
    expect(await codeOf(f.backend.getObjectAcl(ctx(), { bucket, key: 'missing' }))).toBe('NoSuchKey');
  });

  it('keeps the copy’s and the multipart upload’s own ACL', async () => {
    await f.backend.putObject(ctx(), { bucket, key: 'src', body: body('s'), acl: readerAcl('bob') });
    await f.backend.copyObject(ctx(), {
      bucket,
      key: 'dst',
      source: { bucket, key: 'src' },
      acl: readerAcl('carol'),
    });
    expect((await f.backend.getObjectAcl(ctx(), { bucket, key: 'dst' })).grants[1]?.grantee.id).toBe('carol');
    const at = await startUpload(f.backend, bucket, 'mp', { acl: readerAcl('dave') });
    await complete(f.backend, at, await sendParts(f.backend, at, ['p']));
    expect((await f.backend.getObjectAcl(ctx(), { bucket, key: 'mp' })).grants[1]?.grantee.id).toBe('dave');
  });

  it('replaces the ACL of one version only', async () => {
    await f.backend.putBucketVersioning(ctx(), bucket, 'Enabled');
    const v1 = (await f.backend.putObject(ctx(), { bucket, key: 'v', body: body('1') })).versionId;
    await f.backend.putObject(ctx(), { bucket, key: 'v', body: body('2') });
    expect(v1).toBeDefined();
    await f.backend.putObjectAcl(ctx(), { bucket, key: 'v', versionId: v1 as string }, readerAcl('bob'));
    expect(
      (await f.backend.getObjectAcl(ctx(), { bucket, key: 'v', versionId: v1 as string })).grants,
    ).toHaveLength(2);
    expect((await f.backend.getObjectAcl(ctx(), { bucket, key: 'v' })).inherited).toBe(true);
  });

  it('keeps a public access block per bucket', async () => {
    expect(await codeOf(f.backend.getPublicAccessBlock(ctx(), bucket))).toBe(
      'NoSuchPublicAccessBlockConfiguration',
    );
    const block = {
      BlockPublicAcls: true,
      IgnorePublicAcls: false,
      BlockPublicPolicy: true,
      RestrictPublicBuckets: false,
    };
    await f.backend.putPublicAccessBlock(ctx(), bucket, block);
    expect(await f.backend.getPublicAccessBlock(ctx(), bucket)).toEqual(block);
    await f.backend.deletePublicAccessBlock(ctx(), bucket);
    expect(await codeOf(f.backend.getPublicAccessBlock(ctx(), bucket))).toBe(
      'NoSuchPublicAccessBlockConfiguration',
    );
  });
});
