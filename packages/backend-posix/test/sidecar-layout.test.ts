// The sidecar layout keeps every path's attributes where no key can reach them (issue 16 item 8),
// and a tree written with versitygw's unescaped layout is converted at open.
import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PosixBackend } from '../src/index.js';
import { LAYOUT_MARKER, migrateSidecar } from '../src/meta/sidecar-migrate.js';
import { encodeSegment, sidecarRel } from '../src/meta/sidecar-path.js';
import { body, codeOf, ctx, type Fixture, fixture, put, readAll, withBucket } from './helpers.js';

const CORS = '<CORSConfiguration><CORSRule><AllowedOrigin>*</AllowedOrigin></CORSRule></CORSConfiguration>';

/**
 * Keys that land on bucket or object attributes in versitygw's layout (next to the folder object
 * `obj/`), and keys named like the attribute files. They can all exist at once as files.
 */
const COLLIDING = [
  'meta/cors',
  'meta/policy/x',
  'meta/',
  'obj/meta/etag',
  'obj/meta/',
  'meta~',
  'deep/meta/meta/acl',
  'cors',
  'acl/meta',
];

describe('sidecar path encoding', () => {
  it('escapes only meta, meta~, ...; never yields meta; keeps other segments', () => {
    expect(encodeSegment('meta')).toBe('meta~');
    expect(encodeSegment('meta~')).toBe('meta~~');
    expect(encodeSegment('metadata')).toBe('metadata');
    expect(encodeSegment('x')).toBe('x');
    expect(sidecarRel('b/meta/cors')).toBe('b/meta~/cors');
    expect(sidecarRel('meta/x')).toBe('meta/x'); // a bucket named meta is its own top-level dir
    expect(sidecarRel('b/dir/')).toBe('b/dir');
  });
});

describe('sidecar mode: keys cannot reach other attributes', () => {
  let f: Fixture;
  beforeEach(async () => {
    f = await fixture({ sidecarName: 'sc' });
  });
  afterEach(() => f.cleanup());

  it('objects named like attribute directories leave bucket and object metadata intact', async () => {
    const bucket = await withBucket(f);
    await f.backend.putBucketCors(ctx(), bucket, CORS);
    await f.backend.putBucketPolicy(ctx(), bucket, '{"Version":"2012-10-17","Statement":[]}');
    await f.backend.putObject(ctx(), { bucket, key: 'obj/', body: body('') });
    for (const key of COLLIDING) {
      await f.backend.putObject(ctx(), {
        bucket,
        key,
        body: body(key.endsWith('/') ? '' : key),
        contentType: `t/${key.length}`,
      });
    }
    expect(await f.backend.getBucketCors(ctx(), bucket)).toBe(CORS);
    expect(await f.backend.getBucketPolicy(ctx(), bucket)).toContain('2012-10-17');
    expect((await f.backend.headObject(ctx(), { bucket, key: 'obj/' })).etag).toMatch(/^"[0-9a-f]{32}"$/);
    for (const key of COLLIDING) {
      const h = await f.backend.headObject(ctx(), { bucket, key });
      expect(h.contentType).toBe(`t/${key.length}`);
    }
    expect((await readdir(join(f.dir, 'sc', bucket, 'meta'))).sort()).toEqual(['acl', 'cors', 'policy']);
    for (const key of COLLIDING) await f.backend.deleteObject(ctx(), { bucket, key });
    await f.backend.deleteObject(ctx(), { bucket, key: 'obj/' });
    expect(await f.backend.getBucketCors(ctx(), bucket)).toBe(CORS);
    expect((await readdir(join(f.dir, 'sc', bucket))).sort()).toEqual(['meta']);
  });

  it('a meta~ segment too long once escaped is KeyTooLongError, with nothing stored', async () => {
    const bucket = await withBucket(f);
    const key = `a/meta${'~'.repeat(251)}`;
    expect(await codeOf(put(f, bucket, key, 'x'))).toBe('KeyTooLongError');
    expect(await readdir(join(f.root, bucket))).not.toContain('a');
    expect(await codeOf(f.backend.headObject(ctx(), { bucket, key }))).toBe('NoSuchKey');
  });
});

describe('sidecar migration from the versitygw layout', () => {
  let f: Fixture;
  beforeEach(async () => {
    f = await fixture(); // a root only: the sidecar tree is written by hand, the old way
  });
  afterEach(() => f.cleanup());

  /** Writes `rel`'s attributes where versitygw puts them: <sc>/<rel>/meta/<attr>. */
  async function oldAttr(rel: string, attr: string, value: string): Promise<void> {
    const dir = join(f.dir, 'sc', rel, 'meta');
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, attr), value);
  }

  async function oldObject(bucket: string, key: string, data: string, etag: string): Promise<void> {
    const path = join(f.root, bucket, key);
    if (key.endsWith('/')) await mkdir(path, { recursive: true });
    else {
      await mkdir(join(path, '..'), { recursive: true });
      await writeFile(path, data);
    }
    await oldAttr(`${bucket}/${key.replace(/\/$/, '')}`, 'etag', etag);
    await oldAttr(`${bucket}/${key.replace(/\/$/, '')}`, 'content-type', `type of ${key}`);
  }

  it('moves keys with meta segments out of the way, keeps the rest, repairs the bucket, runs once', async () => {
    const bucket = 'old';
    await mkdir(join(f.root, bucket));
    await oldAttr(bucket, 'acl', JSON.stringify({ Owner: 'o', Grantees: [] }));
    await oldObject(bucket, 'plain/key', 'p', '"e1"');
    await oldObject(bucket, 'dir/', '', '"e2"');
    await oldObject(bucket, 'dir/meta/x', 'x', '"e3"');
    await oldObject(bucket, 'dir/meta/meta/y', 'y', '"e4"');
    await oldObject(bucket, 'meta/cors', 'c', '"e5"'); // the attack: <sc>/old/meta/cors is a directory
    // Leftover of a gone key under meta/: would still block the bucket's policy file.
    await oldAttr(`${bucket}/meta/policy`, 'etag', '"gone"');

    const first = await migrateSidecar(f.root, join(f.dir, 'sc'));
    expect(first.skipped).toBe(false);
    expect(first.moved).toBe(6);
    expect((await migrateSidecar(f.root, join(f.dir, 'sc'))).skipped).toBe(true);
    expect(await readFile(join(f.dir, 'sc', LAYOUT_MARKER), 'utf8')).toContain('sidecar 2');

    const b = await PosixBackend.open({ root: f.root, sidecar: join(f.dir, 'sc') });
    const expected: [string, string][] = [
      ['plain/key', '"e1"'],
      ['dir/', '"e2"'],
      ['dir/meta/x', '"e3"'],
      ['dir/meta/meta/y', '"e4"'],
      ['meta/cors', '"e5"'],
    ];
    for (const [key, etag] of expected) {
      const h = await b.headObject(ctx(), { bucket, key });
      expect([key, h.etag, h.contentType]).toEqual([key, etag, `type of ${key}`]);
    }
    expect(await codeOf(b.getBucketCors(ctx(), bucket))).toBe('NoSuchCORSConfiguration');
    await b.putBucketCors(ctx(), bucket, CORS);
    await b.putBucketPolicy(ctx(), bucket, '{}');
    expect(await b.getBucketCors(ctx(), bucket)).toBe(CORS);
    expect(await b.getBucketPolicy(ctx(), bucket)).toBe('{}');
    expect(
      (await readAll((await b.getObject(ctx(), { bucket, key: 'dir/meta/meta/y' })).body)).toString(),
    ).toBe('y');
    // Nothing is left in the bucket's attribute directory but attribute files.
    for (const name of await readdir(join(f.dir, 'sc', bucket, 'meta'))) {
      expect((await stat(join(f.dir, 'sc', bucket, 'meta', name))).isFile()).toBe(true);
    }
  });

  it('an interrupted migration (some files moved, no marker) finishes on the next open; new files win', async () => {
    const bucket = 'half';
    await mkdir(join(f.root, bucket));
    await oldObject(bucket, 'meta/k', 'k', '"old"');
    // A previous run had moved the etag (its copy wins) but not the content type.
    await mkdir(join(f.dir, 'sc', bucket, 'meta~', 'k', 'meta'), { recursive: true });
    await writeFile(join(f.dir, 'sc', bucket, 'meta~', 'k', 'meta', 'etag'), '"moved"');
    const b = await PosixBackend.open({ root: f.root, sidecar: join(f.dir, 'sc') });
    const h = await b.headObject(ctx(), { bucket, key: 'meta/k' });
    expect([h.etag, h.contentType]).toEqual(['"moved"', 'type of meta/k']);
    expect(await readdir(join(f.dir, 'sc', bucket))).not.toContain('meta');
  });

  it('two gateways opening the same old tree at once both come up and agree', async () => {
    const bucket = 'twice';
    await mkdir(join(f.root, bucket));
    for (let i = 0; i < 20; i++) await oldObject(bucket, `meta/k${i}`, 'v', `"e${i}"`);
    const opts = { root: f.root, sidecar: join(f.dir, 'sc') };
    const [a, b] = await Promise.all([PosixBackend.open(opts), PosixBackend.open(opts)]);
    for (let i = 0; i < 20; i++) {
      expect((await a.headObject(ctx(), { bucket, key: `meta/k${i}` })).etag).toBe(`"e${i}"`);
      expect((await b.headObject(ctx(), { bucket, key: `meta/k${i}` })).contentType).toBe(
        `type of meta/k${i}`,
      );
    }
  });
});
