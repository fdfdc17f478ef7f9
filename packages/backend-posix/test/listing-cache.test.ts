// The listing's caches (src/listing/dir-cache.ts, listed-attrs.ts) never show a stale listing:
// on a tree left alone long enough to be kept (RACY_MS), every write path — PUT, overwrite,
// DELETE, DeleteObjects, multipart complete, copy, a folder object, an attribute changed in place
// by another program, a new version and a delete marker — shows up in the very next listing,
// with ETag, size and mtime as on disk.
import { createHash } from 'node:crypto';
import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import type { ListedObject } from '@vgwrdma/backend-contract';
import { afterEach, describe, expect, it } from 'vitest';
import { clearDirCache, keptDirs, RACY_MS } from '../src/listing/dir-cache.js';
import { xattrSet } from '../src/meta/libc-xattr.js';
import { body, ctx, type Fixture, fixture, put, withBucket } from './helpers.js';

let f: Fixture | undefined;
afterEach(async () => {
  await f?.cleanup();
  f = undefined;
});

const md5 = (s: string | Buffer) => `"${createHash('md5').update(s).digest('hex')}"`;
/** Long enough that what was just written is kept by the next listing. */
const settle = () => new Promise((r) => setTimeout(r, RACY_MS + 300));

async function listAll(fx: Fixture, bucket: string, maxKeys = 3): Promise<ListedObject[]> {
  const out: ListedObject[] = [];
  let token: string | undefined;
  do {
    const r = await fx.backend.listObjectsV2(ctx(), {
      bucket,
      maxKeys,
      ...(token ? { continuationToken: token } : {}),
    });
    out.push(...r.contents);
    token = r.isTruncated ? r.nextContinuationToken : undefined;
  } while (token);
  return out;
}

/** What the listing must say: key → ETag and size, and mtime from the file itself. */
async function expectListing(
  fx: Fixture,
  bucket: string,
  want: Record<string, [etag: string, size: number]>,
) {
  const listed = await listAll(fx, bucket);
  expect(listed.map((o) => o.key)).toEqual(Object.keys(want).sort());
  for (const o of listed) {
    const [etag, size] = want[o.key] as [string, number];
    expect({ key: o.key, etag: o.etag, size: o.size }).toEqual({ key: o.key, etag, size });
    const st = await lstat(join(fx.root, bucket, o.key.endsWith('/') ? o.key.slice(0, -1) : o.key));
    expect(o.lastModified.getTime()).toBe(st.mtime.getTime());
  }
}

async function multipart(fx: Fixture, bucket: string, key: string, data: string): Promise<string> {
  const up = await fx.backend.createMultipartUpload(ctx(), { bucket, key });
  const p = await fx.backend.uploadPart(ctx(), {
    bucket,
    key,
    uploadId: up.uploadId,
    partNumber: 1,
    body: body(data),
  });
  const done = await fx.backend.completeMultipartUpload(ctx(), {
    bucket,
    key,
    uploadId: up.uploadId,
    parts: [{ partNumber: 1, etag: p.etag }],
  });
  return done.etag;
}

describe.each([
  ['xattr', {}],
  ['sidecar', { sidecarName: 'sidecar' }],
] as const)('listing caches (%s store)', (_name, opts) => {
  it('every write path shows up in the next listing of a settled tree', async () => {
    clearDirCache();
    f = await fixture(opts);
    const bucket = await withBucket(f);
    for (const k of [
      'put/a',
      'over/a',
      'del/a',
      'del/b',
      'batch/a',
      'batch/b',
      'mp/a',
      'copy/a',
      'attr/a',
      'folder/a',
    ])
      await put(f, bucket, k, k);
    await settle();
    const before = Object.fromEntries(
      ['put/a', 'over/a', 'del/a', 'del/b', 'batch/a', 'batch/b', 'mp/a', 'copy/a', 'attr/a', 'folder/a'].map(
        (k) => [k, [md5(k), k.length] as [string, number]],
      ),
    );
    await expectListing(f, bucket, before);
    await expectListing(f, bucket, before); // now from the kept entries
    expect(keptDirs()).toBeGreaterThan(0);

    await put(f, bucket, 'put/b', 'new');
    await put(f, bucket, 'over/a', 'replaced!');
    await f.backend.deleteObject(ctx(), { bucket, key: 'del/a' });
    await f.backend.deleteObjects(ctx(), {
      bucket,
      objects: [{ key: 'batch/a' }, { key: 'batch/b' }],
      quiet: true,
    });
    const mpEtag = await multipart(f, bucket, 'mp/b', 'parts');
    await f.backend.copyObject(ctx(), { bucket, key: 'copy/b', source: { bucket, key: 'copy/a' } });
    await f.backend.putObject(ctx(), { bucket, key: 'folder/sub/', body: body('') });
    const inPlace = f.backend.metaStore === 'xattr';
    if (inPlace) xattrSet(join(f.root, bucket, 'attr/a'), 'user.etag', Buffer.from('"changed-in-place"'));

    const after: Record<string, [string, number]> = { ...before };
    delete after['del/a'];
    delete after['batch/a'];
    delete after['batch/b'];
    after['put/b'] = [md5('new'), 3];
    after['over/a'] = [md5('replaced!'), 9];
    after['mp/b'] = [mpEtag, 5];
    after['copy/b'] = [md5('copy/a'), 6];
    after['folder/sub/'] = [md5(''), 0];
    if (inPlace) after['attr/a'] = ['"changed-in-place"', 6];
    await expectListing(f, bucket, after);
  }, 30_000);
});

describe('listing caches (versioned tree)', () => {
  it('a new version and a delete marker show up in the next listing of a settled tree', async () => {
    clearDirCache();
    f = await fixture({ versioningName: 'versions' });
    const bucket = await withBucket(f);
    await f.backend.putBucketVersioning(ctx(), bucket, 'Enabled');
    await put(f, bucket, 'v/k', 'one');
    await put(f, bucket, 'v/other', 'stays');
    await settle();
    await expectListing(f, bucket, { 'v/k': [md5('one'), 3], 'v/other': [md5('stays'), 5] });
    await put(f, bucket, 'v/k', 'second');
    await expectListing(f, bucket, { 'v/k': [md5('second'), 6], 'v/other': [md5('stays'), 5] });
    await settle();
    await expectListing(f, bucket, { 'v/k': [md5('second'), 6], 'v/other': [md5('stays'), 5] });
    await f.backend.deleteObject(ctx(), { bucket, key: 'v/k' });
    await expectListing(f, bucket, { 'v/other': [md5('stays'), 5] });
    const d = await f.backend.listObjectsV2(ctx(), { bucket, maxKeys: 10, delimiter: '/' });
    expect(d.commonPrefixes).toEqual(['v/']);
  }, 30_000);
});
