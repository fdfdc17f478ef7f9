// Versioning with a versioning directory: versioned PUT/GET/DELETE, delete markers, suspended
// null versions, ListObjectVersions paging, multipart and copy versions, the on-disk layout.
import { createHash } from 'node:crypto';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { xattrGet } from '../src/meta/libc-xattr.js';
import { body, codeOf, ctx, type Fixture, fixture, readAll, withBucket } from './helpers.js';
import { pageThrough } from './parts.js';

let f: Fixture;
let bucket: string;
const vdir = () => join(f.dir, 'versions');
const hashDir = (key: string) => {
  const h = createHash('sha256').update(key).digest('hex');
  return join(vdir(), bucket, h.slice(0, 2), h.slice(2, 4), h.slice(4, 6), h);
};
const putV = async (key: string, data: string) =>
  (await f.backend.putObject(ctx(), { bucket, key, body: body(data) })).versionId;
const getText = async (key: string, versionId?: string) =>
  (
    await readAll(
      (
        await f.backend.getObject(ctx(), { bucket, key, ...(versionId ? { versionId } : {}) })
      ).body,
    )
  ).toString();

beforeEach(async () => {
  f = await fixture({ versioningName: 'versions' });
  bucket = await withBucket(f);
});
afterEach(() => f.cleanup());

describe('versioning', () => {
  it('without a versioning dir the gateway answers VersioningNotConfigured', async () => {
    const plain = await fixture();
    try {
      await withBucket(plain);
      expect(await codeOf(plain.backend.putBucketVersioning(ctx(), 'bucket', 'Enabled'))).toBe(
        'VersioningNotConfigured',
      );
    } finally {
      await plain.cleanup();
    }
  });

  it('enabled: each PUT is a ULID version; old ones move to the hashed versioning path', async () => {
    expect(await f.backend.getBucketVersioning(ctx(), bucket)).toBeUndefined();
    await f.backend.putBucketVersioning(ctx(), bucket, 'Enabled');
    expect(await f.backend.getBucketVersioning(ctx(), bucket)).toBe('Enabled');
    const v1 = await putV('a/k', 'one');
    const v2 = await putV('a/k', 'two');
    expect(v1).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(v2 && v1 && v2 > v1).toBe(true);
    expect(await getText('a/k')).toBe('two');
    expect(await getText('a/k', v1)).toBe('one');
    expect((await f.backend.headObject(ctx(), { bucket, key: 'a/k' })).versionId).toBe(v2);
    // On disk: the latest at the object path, the old one under <vdir>/<bucket>/<h..>/<id>.
    expect(xattrGet(join(f.root, bucket, 'a/k'), 'user.version-id')?.toString()).toBe(v2);
    expect(await readdir(hashDir('a/k'))).toEqual([v1]);
    expect(xattrGet(join(hashDir('a/k'), v1 as string), 'user.version-id')?.toString()).toBe(v1);
    expect(
      await codeOf(
        f.backend.getObject(ctx(), { bucket, key: 'a/k', versionId: '01ARZ3NDEKTSV4RRFFQ69G5FAV' }),
      ),
    ).toBe('NoSuchVersion');
  });

  it('delete markers hide the key, list as latest, and deleting the marker restores it', async () => {
    await f.backend.putBucketVersioning(ctx(), bucket, 'Enabled');
    const v1 = await putV('k', 'data');
    const del = await f.backend.deleteObject(ctx(), { bucket, key: 'k' });
    expect(del.deleteMarker).toBe(true);
    expect(del.versionId).not.toBe(v1);
    // On disk: an empty marker file at the key with delete-marker and its own version-id.
    expect(xattrGet(join(f.root, bucket, 'k'), 'user.delete-marker')).toEqual(Buffer.alloc(0));
    expect(xattrGet(join(f.root, bucket, 'k'), 'user.version-id')?.toString()).toBe(del.versionId);
    expect((await stat(join(f.root, bucket, 'k'))).size).toBe(0);
    expect(await readdir(hashDir('k'))).toEqual([v1]);
    const err = await f.backend.getObject(ctx(), { bucket, key: 'k' }).catch((e: unknown) => e);
    expect((err as { code: string }).code).toBe('NoSuchKey');
    expect((err as { headers: Record<string, string> }).headers['x-amz-delete-marker']).toBe('true');
    expect(
      await codeOf(f.backend.headObject(ctx(), { bucket, key: 'k', versionId: del.versionId as string })),
    ).toBe('MethodNotAllowed');
    expect((await f.backend.listObjectsV2(ctx(), { bucket, maxKeys: 10 })).contents).toEqual([]);
    const lv = await f.backend.listObjectVersions(ctx(), { bucket, maxKeys: 10 });
    expect(lv.deleteMarkers.map((d) => [d.versionId, d.isLatest])).toEqual([[del.versionId, true]]);
    expect(lv.versions.map((v) => [v.versionId, v.isLatest])).toEqual([[v1, false]]);
    expect(await codeOf(f.backend.deleteBucket(ctx(), bucket))).toBe('BucketNotEmpty');
    const undo = await f.backend.deleteObject(ctx(), {
      bucket,
      key: 'k',
      versionId: del.versionId as string,
    });
    expect(undo.deleteMarker).toBe(true);
    expect(await getText('k')).toBe('data');
    // Deleting the last version removes the key and its versions dir.
    await f.backend.deleteObject(ctx(), { bucket, key: 'k', versionId: v1 as string });
    expect(await codeOf(f.backend.headObject(ctx(), { bucket, key: 'k' }))).toBe('NoSuchKey');
    await f.backend.deleteBucket(ctx(), bucket);
  });

  it('deleting the latest version by id promotes the previous one', async () => {
    await f.backend.putBucketVersioning(ctx(), bucket, 'Enabled');
    const v1 = await putV('k', 'one');
    const v2 = await putV('k', 'two');
    await f.backend.deleteObject(ctx(), { bucket, key: 'k', versionId: v2 as string });
    expect(await getText('k')).toBe('one');
    expect((await f.backend.headObject(ctx(), { bucket, key: 'k' })).versionId).toBe(v1);
  });

  it('suspended: PUTs replace the null version; versioned ones are kept', async () => {
    await f.backend.putBucketVersioning(ctx(), bucket, 'Enabled');
    const v1 = await putV('k', 'v1');
    await f.backend.putBucketVersioning(ctx(), bucket, 'Suspended');
    expect(await putV('k', 'n1')).toBe('null');
    expect(await putV('k', 'n2')).toBe('null');
    expect(await getText('k', 'null')).toBe('n2');
    expect(await getText('k', v1)).toBe('v1');
    const lv = await f.backend.listObjectVersions(ctx(), { bucket, maxKeys: 10 });
    expect(lv.versions.map((v) => v.versionId)).toEqual(['null', v1]);
    const del = await f.backend.deleteObject(ctx(), { bucket, key: 'k' });
    expect(del).toEqual({ deleteMarker: true, versionId: 'null' });
    expect(await getText('k', v1)).toBe('v1');
  });

  it('ListObjectVersions pages by key and version id markers', async () => {
    await f.backend.putBucketVersioning(ctx(), bucket, 'Enabled');
    const ids: string[] = [];
    for (const [k, d] of [
      ['a', '1'],
      ['a', '2'],
      ['a', '3'],
      ['b', '1'],
      ['c', '1'],
    ])
      ids.push((await putV(k as string, d as string)) as string);
    const pages = await pageThrough(
      5,
      (markers) => f.backend.listObjectVersions(ctx(), { bucket, maxKeys: 2, ...markers }),
      (page) => ({ keyMarker: page.nextKeyMarker, versionIdMarker: page.nextVersionIdMarker }),
    );
    const seen = pages.flatMap((page) => page.versions.map((v) => `${v.key}:${v.versionId}:${v.isLatest}`));
    expect(seen).toEqual([
      `a:${ids[2]}:true`,
      `a:${ids[1]}:false`,
      `a:${ids[0]}:false`,
      `b:${ids[3]}:true`,
      `c:${ids[4]}:true`,
    ]);
  });

  it('copy and multipart complete create versions', async () => {
    await f.backend.putBucketVersioning(ctx(), bucket, 'Enabled');
    const v1 = await putV('src', 'first');
    await putV('src', 'second');
    const c = await f.backend.copyObject(ctx(), {
      bucket,
      key: 'dst',
      source: { bucket, key: 'src', versionId: v1 as string },
    });
    expect(c.copySourceVersionId).toBe(v1);
    expect(c.versionId).toMatch(/^[0-9A-Z]{26}$/);
    expect(await getText('dst')).toBe('first');
    const up = await f.backend.createMultipartUpload(ctx(), { bucket, key: 'dst' });
    const p = await f.backend.uploadPart(ctx(), {
      bucket,
      key: 'dst',
      uploadId: up.uploadId,
      partNumber: 1,
      body: body('mp'),
    });
    const done = await f.backend.completeMultipartUpload(ctx(), {
      bucket,
      key: 'dst',
      uploadId: up.uploadId,
      parts: [{ partNumber: 1, etag: p.etag }],
    });
    expect(done.versionId).toMatch(/^[0-9A-Z]{26}$/);
    expect(await getText('dst')).toBe('mp');
    expect(await getText('dst', c.versionId)).toBe('first');
    expect((await stat(join(hashDir('dst'), c.versionId as string))).size).toBe(5);
  });
});
