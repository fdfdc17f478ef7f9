// Versioning beyond the basics: concurrent writers each keep their version, ?partNumber= reads
// and GetObjectAttributes of an old version, tagging by version, DeleteObjects with versions,
// the sidecar store, and lock on a gateway without a versioning dir.
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { acl, body, codeOf, ctx, type Fixture, fixture, OWNER, readAll, withBucket } from './helpers.js';
import { complete, numbered, sendParts, startUpload } from './parts.js';

let f: Fixture | undefined;
afterEach(async () => {
  await f?.cleanup();
  f = undefined;
});

async function versioned(opts: { sidecarName?: string } = {}): Promise<{ f: Fixture; bucket: string }> {
  f = await fixture({ versioningName: 'versions', ...opts });
  const bucket = await withBucket(f);
  await f.backend.putBucketVersioning(ctx(), bucket, 'Enabled');
  return { f, bucket };
}

describe('versioning, more', () => {
  it('concurrent PUTs of one key each become a version', async () => {
    const { f, bucket } = await versioned();
    const ids = await Promise.all(
      ['a', 'b', 'c', 'd'].map(
        async (d) => (await f.backend.putObject(ctx(), { bucket, key: 'k', body: body(d) })).versionId,
      ),
    );
    const lv = await f.backend.listObjectVersions(ctx(), { bucket, maxKeys: 10 });
    expect(lv.versions.map((v) => v.versionId).sort()).toEqual([...ids].sort());
    expect(lv.versions.filter((v) => v.isLatest)).toHaveLength(1);
  });

  it('an old multipart version answers ?partNumber= and GetObjectAttributes by version id', async () => {
    const { f, bucket } = await versioned();
    const at = await startUpload(f.backend, bucket, 'mp');
    const p1 = Buffer.alloc(5 * 1024 * 1024, 7);
    const done = await complete(f.backend, at, await sendParts(f.backend, at, [p1, 'tail']));
    const versionId = done.versionId as string;
    await f.backend.putObject(ctx(), { bucket, key: 'mp', body: body('new') });
    const part = await f.backend.getObject(ctx(), { bucket, key: 'mp', versionId, partNumber: 2 });
    expect((await readAll(part.body)).toString()).toBe('tail');
    expect(part.partsCount).toBe(2);
    expect(part.versionId).toBe(versionId);
    const attrs = await f.backend.getObjectAttributes(ctx(), {
      bucket,
      key: 'mp',
      versionId,
      attributes: ['ObjectSize', 'ObjectParts'],
    });
    expect(attrs.size).toBe(p1.length + 4);
    expect(attrs.versionId).toBe(versionId);
    expect(attrs.parts?.totalPartsCount).toBe(2);
  });

  it('UploadPartCopy reads a source version; DELETE of a missing key still leaves a marker', async () => {
    const { f, bucket } = await versioned();
    const v1 = (await f.backend.putObject(ctx(), { bucket, key: 's', body: body('old') }))
      .versionId as string;
    await f.backend.putObject(ctx(), { bucket, key: 's', body: body('newer') });
    const at = await startUpload(f.backend, bucket, 't');
    const part = await f.backend.uploadPartCopy(ctx(), {
      ...at,
      partNumber: 1,
      source: { bucket, key: 's', versionId: v1 },
    });
    expect(part.copySourceVersionId).toBe(v1);
    await complete(f.backend, at, numbered(part.etag));
    expect((await readAll((await f.backend.getObject(ctx(), { bucket, key: 't' })).body)).toString()).toBe(
      'old',
    );
    const del = await f.backend.deleteObject(ctx(), { bucket, key: 'never/was' });
    expect(del.deleteMarker).toBe(true);
    const lv = await f.backend.listObjectVersions(ctx(), { bucket, prefix: 'never/', maxKeys: 10 });
    expect(lv.deleteMarkers.map((d) => d.key)).toEqual(['never/was']);
    // Under an object (a file cannot be a directory) there is nothing to mark.
    expect(await f.backend.deleteObject(ctx(), { bucket, key: 's/under' })).toEqual({});
    // A directory holding only markers is a common prefix of the versions, not of the objects.
    const objs = await f.backend.listObjectsV2(ctx(), { bucket, delimiter: '/', maxKeys: 10 });
    expect(objs.commonPrefixes).toEqual([]);
    const vers = await f.backend.listObjectVersions(ctx(), { bucket, delimiter: '/', maxKeys: 10 });
    expect(vers.commonPrefixes).toEqual(['never/']);
  });

  it('tags an old version on its own; DeleteObjects removes versions and adds markers', async () => {
    const { f, bucket } = await versioned();
    const v1 = (await f.backend.putObject(ctx(), { bucket, key: 'k', body: body('1') })).versionId as string;
    await f.backend.putObject(ctx(), { bucket, key: 'k', body: body('2') });
    await f.backend.putObjectTagging(ctx(), { bucket, key: 'k', versionId: v1 }, { old: 'yes' });
    expect(await f.backend.getObjectTagging(ctx(), { bucket, key: 'k', versionId: v1 })).toEqual({
      old: 'yes',
    });
    expect(await f.backend.getObjectTagging(ctx(), { bucket, key: 'k' })).toEqual({});
    const out = await f.backend.deleteObjects(ctx(), {
      bucket,
      objects: [{ key: 'k', versionId: v1 }, { key: 'k' }],
    });
    expect(out.errors).toEqual([]);
    expect(out.deleted[0]).toEqual({ key: 'k', versionId: v1 });
    expect(out.deleted[1]?.deleteMarker).toBe(true);
    expect(out.deleted[1]?.deleteMarkerVersionId).toMatch(/^[0-9A-Z]{26}$/);
    const lv = await f.backend.listObjectVersions(ctx(), { bucket, maxKeys: 10 });
    expect(lv.versions).toHaveLength(1);
    expect(lv.deleteMarkers).toHaveLength(1);
  });

  it('works with the sidecar store: archived versions keep their attributes', async () => {
    const { f, bucket } = await versioned({ sidecarName: 'meta' });
    const v1 = (
      await f.backend.putObject(ctx(), { bucket, key: 'a/k', body: body('one'), contentType: 'text/one' })
    ).versionId as string;
    await f.backend.putObject(ctx(), { bucket, key: 'a/k', body: body('two'), contentType: 'text/two' });
    const old = await f.backend.headObject(ctx(), { bucket, key: 'a/k', versionId: v1 });
    expect(old.contentType).toBe('text/one');
    expect(old.etag).toMatch(/^"[0-9a-f]{32}"$/);
    expect((await f.backend.headObject(ctx(), { bucket, key: 'a/k' })).contentType).toBe('text/two');
    await f.backend.deleteObject(ctx(), {
      bucket,
      key: 'a/k',
      versionId: (await f.backend.headObject(ctx(), { bucket, key: 'a/k' })).versionId as string,
    });
    expect((await f.backend.headObject(ctx(), { bucket, key: 'a/k' })).contentType).toBe('text/one');
    expect(await readdir(join(f.dir, 'versions', bucket))).toEqual([]);
  });

  it('without a versioning dir a locked object can be neither overwritten nor deleted', async () => {
    f = await fixture();
    await f.backend.createBucket(ctx(), {
      bucket: 'lockd',
      owner: OWNER,
      acl: acl(),
      objectLockEnabled: true,
    });
    await f.backend.putObject(ctx(), { bucket: 'lockd', key: 'k', body: body('x'), legalHold: true });
    expect(await codeOf(f.backend.putObject(ctx(), { bucket: 'lockd', key: 'k', body: body('y') }))).toBe(
      'AccessDenied',
    );
    expect(await codeOf(f.backend.deleteObject(ctx(), { bucket: 'lockd', key: 'k' }))).toBe('AccessDenied');
    await f.backend.putObjectLegalHold(ctx(), { bucket: 'lockd', key: 'k' }, false);
    await f.backend.deleteObject(ctx(), { bucket: 'lockd', key: 'k' });
  });
});
