import { createHash } from 'node:crypto';
import { readdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { getChecksum, parseRange } from '@vgwrdma/backend-contract';
import { describe, expect, it } from 'vitest';
import { ownerId } from '../src/index.js';
import { body, bucketEach, codeOf, ctx, deadPid, type Fixture, put, readAll } from './helpers.js';
import { listedParts, startUpload } from './parts.js';

let f: Fixture;
let bucket: string;
bucketEach((fx, b) => {
  f = fx;
  bucket = b;
});

const md5 = (s: string | Buffer) => `"${createHash('md5').update(s).digest('hex')}"`;

describe('put / get / head', () => {
  it('stores data at <root>/<bucket>/<key> and answers the MD5 ETag', async () => {
    const r = await f.backend.putObject(ctx(), {
      bucket,
      key: 'a/b/c.txt',
      body: body('hello world'),
      contentType: 'text/plain',
      metadata: { colour: 'blue' },
    });
    expect(r.etag).toBe(md5('hello world'));
    expect(r.size).toBe(11);
    const crc = getChecksum('CRC64NVME').create();
    crc.update(Buffer.from('hello world'));
    expect(r.checksums).toEqual({ CRC64NVME: crc.digest() });
    const st = await stat(join(f.root, bucket, 'a/b/c.txt'));
    expect(st.size).toBe(11);
    expect((await stat(join(f.root, bucket, 'a'))).mode & 0o777).toBe(0o755);

    const g = await f.backend.getObject(ctx(), { bucket, key: 'a/b/c.txt', checksumMode: true });
    expect((await readAll(g.body)).toString()).toBe('hello world');
    expect(g.etag).toBe(r.etag);
    expect(g.contentType).toBe('text/plain');
    expect(g.metadata).toEqual({ colour: 'blue' });
    expect(g.checksums).toEqual(r.checksums);
    expect(g.checksumType).toBe('FULL_OBJECT');
  });

  it('serves ranges and rejects unsatisfiable ones', async () => {
    await put(f, bucket, 'r', '0123456789');
    const g = await f.backend.getObject(ctx(), { bucket, key: 'r', range: parseRange('bytes=2-5') as never });
    expect((await readAll(g.body)).toString()).toBe('2345');
    expect(g.range).toEqual({ start: 2, end: 5, size: 10 });
    const s = await f.backend.getObject(ctx(), { bucket, key: 'r', range: parseRange('bytes=-3') as never });
    expect((await readAll(s.body)).toString()).toBe('789');
    expect(
      await codeOf(f.backend.getObject(ctx(), { bucket, key: 'r', range: parseRange('bytes=10-') as never })),
    ).toBe('InvalidRange');
  });

  it('applies conditions', async () => {
    const etag = await put(f, bucket, 'c', 'x');
    expect(
      await codeOf(f.backend.headObject(ctx(), { bucket, key: 'c', conditions: { ifNoneMatch: etag } })),
    ).toBe('NotModified');
    expect(
      await codeOf(f.backend.headObject(ctx(), { bucket, key: 'c', conditions: { ifMatch: '"nope"' } })),
    ).toBe('PreconditionFailed');
    const h = await f.backend.headObject(ctx(), { bucket, key: 'c', conditions: { ifMatch: etag } });
    expect(h.size).toBe(1);
  });

  it('distinguishes NoSuchKey from NoSuchBucket', async () => {
    expect(await codeOf(f.backend.headObject(ctx(), { bucket, key: 'missing' }))).toBe('NoSuchKey');
    expect(await codeOf(f.backend.headObject(ctx(), { bucket: 'nobucket', key: 'x' }))).toBe('NoSuchBucket');
    await put(f, bucket, 'dir/file');
    expect(await codeOf(f.backend.headObject(ctx(), { bucket, key: 'dir' }))).toBe('NoSuchKey');
    expect(await codeOf(f.backend.headObject(ctx(), { bucket, key: 'dir/file/x' }))).toBe('NoSuchKey');
    // a plain file at the top level is not a bucket
    await writeFile(join(f.root, 'notabucket'), 'x');
    expect(await codeOf(f.backend.headObject(ctx(), { bucket: 'notabucket', key: 'x' }))).toBe(
      'NoSuchBucket',
    );
    expect(await codeOf(put(f, 'notabucket', 'x'))).toBe('NoSuchBucket');
  });

  it('verifies Content-MD5, checksums and length, publishing nothing on failure', async () => {
    const wrongMd5 = createHash('md5').update('other').digest('base64');
    expect(
      await codeOf(
        f.backend.putObject(ctx(), { bucket, key: 'm', body: body('data'), contentMD5: wrongMd5 }),
      ),
    ).toBe('BadDigest');
    const okMd5 = createHash('md5').update('data').digest('base64');
    await f.backend.putObject(ctx(), { bucket, key: 'm2', body: body('data'), contentMD5: okMd5 });
    expect(
      await codeOf(
        f.backend.putObject(ctx(), {
          bucket,
          key: 'k',
          body: body('data'),
          checksum: { algorithm: 'SHA256', expected: () => 'AAAA' },
        }),
      ),
    ).toBe('BadDigest');
    expect(
      await codeOf(f.backend.putObject(ctx(), { bucket, key: 'l', body: body('data'), contentLength: 10 })),
    ).toBe('IncompleteBody');
    expect(
      await codeOf(f.backend.putObject(ctx(), { bucket, key: 'l', body: body('data'), contentLength: 2 })),
    ).toBe('IncompleteBody');
    for (const key of ['m', 'k', 'l']) {
      expect(await codeOf(f.backend.headObject(ctx(), { bucket, key }))).toBe('NoSuchKey');
    }
    expect(await readdir(join(f.root, bucket, '.sgwtmp'))).toEqual([]);
  });

  it('computes and stores a requested checksum next to CRC64NVME', async () => {
    const sha = createHash('sha256').update('data').digest('base64');
    const r = await f.backend.putObject(ctx(), {
      bucket,
      key: 's',
      body: body('data'),
      checksum: { algorithm: 'SHA256', expected: () => sha },
    });
    expect(r.checksums).toEqual({ SHA256: sha });
    const h = await f.backend.headObject(ctx(), { bucket, key: 's', checksumMode: true });
    expect(h.checksums).toEqual({ SHA256: sha });
  });

  it('enforces key length and metadata size', async () => {
    expect(await codeOf(put(f, bucket, 'k'.repeat(1025)))).toBe('KeyTooLongError');
    const big = { a: 'x'.repeat(2048) };
    expect(
      await codeOf(f.backend.putObject(ctx(), { bucket, key: 'x', body: body(''), metadata: big })),
    ).toBe('MetadataTooLarge');
  });

  it('answers ExistingObjectIsDirectory and ObjectParentIsFile', async () => {
    await put(f, bucket, 'foo/bar/x');
    expect(await codeOf(put(f, bucket, 'foo/bar'))).toBe('ExistingObjectIsDirectory');
    await put(f, bucket, 'file');
    expect(await codeOf(put(f, bucket, 'file/child'))).toBe('ObjectParentIsFile');
    expect(await readdir(join(f.root, bucket, '.sgwtmp'))).toEqual([]);
  });

  it('conditional writes: If-None-Match * and If-Match', async () => {
    const etag = await put(f, bucket, 'cw', 'one');
    expect(
      await codeOf(f.backend.putObject(ctx(), { bucket, key: 'cw', body: body('two'), ifNoneMatch: '*' })),
    ).toBe('PreconditionFailed');
    expect(
      await codeOf(f.backend.putObject(ctx(), { bucket, key: 'cw', body: body('two'), ifMatch: '"bad"' })),
    ).toBe('PreconditionFailed');
    await f.backend.putObject(ctx(), { bucket, key: 'cw', body: body('two'), ifMatch: etag });
    expect((await readAll((await f.backend.getObject(ctx(), { bucket, key: 'cw' })).body)).toString()).toBe(
      'two',
    );
  });

  it('conditional writes racing on one key: exactly one of them wins', async () => {
    // Regression: the condition was checked only before the body streamed, so concurrent
    // read-modify-write clients (the S3 IAM store) all passed it and all but one lost their update.
    const etag = await put(f, bucket, 'race', 'base');
    const writers = Array.from({ length: 8 }, (_, i) =>
      codeOf(f.backend.putObject(ctx(), { bucket, key: 'race', body: body(`w${i}`), ifMatch: etag })),
    );
    const codes = await Promise.all(writers);
    expect(codes.filter((c) => c === undefined)).toHaveLength(1);
    expect(codes.filter((c) => c === 'PreconditionFailed')).toHaveLength(7);
    const creators = Array.from({ length: 8 }, (_, i) =>
      codeOf(f.backend.putObject(ctx(), { bucket, key: 'fresh', body: body(`c${i}`), ifNoneMatch: '*' })),
    );
    expect((await Promise.all(creators)).filter((c) => c === undefined)).toHaveLength(1);
  });
});

describe('folder objects', () => {
  it('are directories with the MD5-of-nothing ETag and must be empty', async () => {
    const r = await f.backend.putObject(ctx(), { bucket, key: 'dir/', body: body('') });
    expect(r.etag).toBe(md5(''));
    expect((await stat(join(f.root, bucket, 'dir'))).isDirectory()).toBe(true);
    const h = await f.backend.headObject(ctx(), { bucket, key: 'dir/' });
    expect(h.size).toBe(0);
    expect(h.etag).toBe(md5(''));
    expect(await codeOf(f.backend.putObject(ctx(), { bucket, key: 'd2/', body: body('data') }))).toBe(
      'DirectoryObjectContainsData',
    );
    // A plain parent directory is not a folder object.
    await put(f, bucket, 'plain/x');
    expect(await codeOf(f.backend.headObject(ctx(), { bucket, key: 'plain/' }))).toBe('NoSuchKey');
  });

  it('survive deletes of their children, and lose only their own attributes on delete', async () => {
    await f.backend.putObject(ctx(), { bucket, key: 'd/', body: body('') });
    await put(f, bucket, 'd/x');
    await f.backend.deleteObject(ctx(), { bucket, key: 'd/x' });
    expect((await f.backend.headObject(ctx(), { bucket, key: 'd/' })).etag).toBe(md5(''));
    await put(f, bucket, 'd/y');
    await f.backend.deleteObject(ctx(), { bucket, key: 'd/' });
    expect(await codeOf(f.backend.headObject(ctx(), { bucket, key: 'd/' }))).toBe('NoSuchKey');
    expect((await f.backend.headObject(ctx(), { bucket, key: 'd/y' })).size).toBe(3);
  });
});

describe('delete', () => {
  it('removes the file and the parents it left empty; missing keys succeed', async () => {
    await put(f, bucket, 'a/b/c/d');
    await put(f, bucket, 'a/keep');
    await f.backend.deleteObject(ctx(), { bucket, key: 'a/b/c/d' });
    expect(await readdir(join(f.root, bucket, 'a'))).toEqual(['keep']);
    await f.backend.deleteObject(ctx(), { bucket, key: 'never/was' });
    expect(await codeOf(f.backend.deleteObject(ctx(), { bucket: 'nob', key: 'x' }))).toBe('NoSuchBucket');
  });

  it('deleteObjects reports each key', async () => {
    await put(f, bucket, 'x1');
    await put(f, bucket, 'x2');
    const r = await f.backend.deleteObjects(ctx(), {
      bucket,
      objects: [{ key: 'x1' }, { key: 'x2' }, { key: 'x3' }],
    });
    expect(r.deleted.map((d) => d.key)).toEqual(['x1', 'x2', 'x3']);
    expect(r.errors).toEqual([]);
    expect((await readdir(join(f.root, bucket))).filter((n) => n !== '.sgwtmp')).toEqual([]);
  });
});

describe('copy', () => {
  it('COPY keeps metadata and tags, REPLACE takes the request', async () => {
    await f.backend.putObject(ctx(), {
      bucket,
      key: 'src',
      body: body('payload'),
      contentType: 'a/b',
      metadata: { m: '1' },
      tagging: { t: 'v' },
    });
    const c = await f.backend.copyObject(ctx(), { bucket, key: 'dst', source: { bucket, key: 'src' } });
    expect(c.etag).toBe(md5('payload'));
    const h = await f.backend.headObject(ctx(), { bucket, key: 'dst' });
    expect(h.contentType).toBe('a/b');
    expect(h.metadata).toEqual({ m: '1' });
    expect(await f.backend.getObjectTagging(ctx(), { bucket, key: 'dst' })).toEqual({ t: 'v' });
    await f.backend.copyObject(ctx(), {
      bucket,
      key: 'dst2',
      source: { bucket, key: 'src' },
      metadataDirective: 'REPLACE',
      taggingDirective: 'REPLACE',
      metadata: { n: '2' },
      contentType: 'c/d',
    });
    const h2 = await f.backend.headObject(ctx(), { bucket, key: 'dst2' });
    expect(h2.metadata).toEqual({ n: '2' });
    expect(h2.contentType).toBe('c/d');
    expect(await f.backend.getObjectTagging(ctx(), { bucket, key: 'dst2' })).toEqual({});
  });

  it('refuses a self-copy without REPLACE and allows one with it', async () => {
    await put(f, bucket, 'self', 'same');
    const err = await f.backend
      .copyObject(ctx(), { bucket, key: 'self', source: { bucket, key: 'self' } })
      .catch((e) => e);
    expect(err.code).toBe('InvalidRequest');
    expect(err.message).toMatch(/copy an object to itself/);
    await f.backend.copyObject(ctx(), {
      bucket,
      key: 'self',
      source: { bucket, key: 'self' },
      metadataDirective: 'REPLACE',
      metadata: { v: '2' },
    });
    const g = await f.backend.getObject(ctx(), { bucket, key: 'self' });
    expect((await readAll(g.body)).toString()).toBe('same');
    expect(g.metadata).toEqual({ v: '2' });
  });

  it("answers the published file's mtime as LastModified, the one HEAD reports", async () => {
    await put(f, bucket, 'src', 'data');
    const out = await f.backend.copyObject(ctx(), { bucket, key: 'dst', source: { bucket, key: 'src' } });
    const st = await stat(join(f.root, bucket, 'dst'));
    expect(out.lastModified.getTime()).toBe(st.mtime.getTime());
    const h = await f.backend.headObject(ctx(), { bucket, key: 'dst' });
    expect(h.lastModified.getTime()).toBe(out.lastModified.getTime());
  });
});

describe('tagging', () => {
  it('get/put/delete with a 10-tag limit', async () => {
    await put(f, bucket, 't');
    await f.backend.putObjectTagging(ctx(), { bucket, key: 't' }, { a: '1', b: '2' });
    expect(await f.backend.getObjectTagging(ctx(), { bucket, key: 't' })).toEqual({ a: '1', b: '2' });
    expect((await f.backend.headObject(ctx(), { bucket, key: 't' })).tagCount).toBe(2);
    const eleven = Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`k${i}`, 'v']));
    expect(await codeOf(f.backend.putObjectTagging(ctx(), { bucket, key: 't' }, eleven))).toBe('InvalidTag');
    await f.backend.deleteObjectTagging(ctx(), { bucket, key: 't' });
    expect(await f.backend.getObjectTagging(ctx(), { bucket, key: 't' })).toEqual({});
    expect(await codeOf(f.backend.getObjectTagging(ctx(), { bucket, key: 'none' }))).toBe('NoSuchKey');
  });
});

describe('open', () => {
  it('removes stale temp files but keeps multipart uploads', async () => {
    const at = await startUpload(f.backend, bucket, 'mp');
    await writeFile(join(f.root, bucket, '.sgwtmp', `${ownerId(deadPid())}.stale-temp`), 'junk');
    const { PosixBackend } = await import('../src/index.js');
    await PosixBackend.open({ root: f.root });
    expect(await readdir(join(f.root, bucket, '.sgwtmp'))).toEqual(['multipart']);
    expect(await listedParts(f.backend, at)).toEqual([]);
  });
});
