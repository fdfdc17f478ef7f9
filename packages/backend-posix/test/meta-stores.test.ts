// The metadata stores, and the on-disk attribute names and values of docs/posix-layout.md, read back
// both through libc (koffi) and with the `getfattr` binary, so the layout is proven independent
// of our own reader.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { getChecksum } from '@vgwrdma/backend-contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sha256Hex } from '../src/fs/layout.js';
import { PosixBackend, probeXattrs, SidecarStore, XattrStore, XattrUnsupportedError } from '../src/index.js';
import { xattrGet, xattrList, xattrSetFd } from '../src/meta/libc-xattr.js';
import {
  acl,
  body,
  bucketEach,
  codeOf,
  ctx,
  type Fixture,
  fixture,
  put,
  readAll,
  withBucket,
} from './helpers.js';
import { complete, sendParts, startUpload } from './parts.js';
import { tempDirEach } from './temp-dir-each.js';

/** One attribute as the `getfattr` binary prints it (raw bytes, hex-decoded). */
function getfattr(path: string, attr: string): Buffer | undefined {
  try {
    const out = execFileSync('getfattr', ['--absolute-names', '-e', 'hex', '-n', `user.${attr}`, path], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const line = out.split('\n').find((l) => l.startsWith(`user.${attr}=`));
    if (!line) return undefined;
    return Buffer.from(line.slice(line.indexOf('=0x') + 3), 'hex');
  } catch {
    return undefined;
  }
}

function getfattrNames(path: string): string[] {
  const out = execFileSync('getfattr', ['--absolute-names', '-d', '-m', '^user\\.', path], {
    encoding: 'utf8',
  });
  return out
    .split('\n')
    .filter((l) => l.startsWith('user.'))
    .map((l) => l.slice(5, l.indexOf('=') < 0 ? undefined : l.indexOf('=')))
    .sort();
}

describe('XattrStore', () => {
  let dir: string;
  tempDirEach('xattr-store-', (d) => {
    dir = d;
  });

  it('sets, gets, lists and removes user.* attributes, visible to getfattr', async () => {
    await writeFile(join(dir, 'f'), 'x');
    const s = new XattrStore(dir);
    expect(await s.get('f', 'etag')).toBeUndefined();
    await s.set('f', 'etag', '"abc"');
    await s.set('f', 'bin', Buffer.from([0, 1, 2, 255]));
    expect((await s.get('f', 'etag'))?.toString()).toBe('"abc"');
    expect(await s.get('f', 'bin')).toEqual(Buffer.from([0, 1, 2, 255]));
    expect((await s.list('f')).sort()).toEqual(['bin', 'etag']);
    expect(getfattr(join(dir, 'f'), 'etag')?.toString()).toBe('"abc"');
    expect(getfattr(join(dir, 'f'), 'bin')).toEqual(Buffer.from([0, 1, 2, 255]));
    await s.remove('f', 'etag');
    await s.remove('f', 'etag'); // absent: not an error
    expect(await s.get('f', 'etag')).toBeUndefined();
    expect(getfattr(join(dir, 'f'), 'etag')).toBeUndefined();
  });

  it('reads and writes through an open fd', async () => {
    const { open } = await import('node:fs/promises');
    await writeFile(join(dir, 'g'), 'y');
    const fh = await open(join(dir, 'g'), 'r+');
    const s = new XattrStore(dir);
    await s.set('g', 'etag', 'via-fd', fh.fd);
    expect((await s.get('g', 'etag', fh.fd))?.toString()).toBe('via-fd');
    await fh.close();
    expect(getfattr(join(dir, 'g'), 'etag')?.toString()).toBe('via-fd');
  });

  it('sets through an fd inline and reports a failure with its errno', async () => {
    const { open } = await import('node:fs/promises');
    await writeFile(join(dir, 'a'), '');
    const fh = await open(join(dir, 'a'), 'r+');
    xattrSetFd(fh.fd, 'user.inline', Buffer.from('fd'));
    expect(getfattr(join(dir, 'a'), 'inline')?.toString()).toBe('fd');
    expect(() => xattrSetFd(fh.fd, 'user.big', Buffer.alloc(1 << 20))).toThrow(
      expect.objectContaining({ syscall: 'fsetxattr' }),
    );
    await fh.close();
    expect(() => xattrSetFd(-1, 'user.x', Buffer.from('x'))).toThrow(
      expect.objectContaining({ code: 'EBADF' }),
    );
  });

  it('reads values larger than a first guess, and throws ENOENT for missing paths', async () => {
    await writeFile(join(dir, 'h'), '');
    const s = new XattrStore(dir);
    const big = Buffer.alloc(3000, 'z');
    await s.set('h', 'metadata', big);
    expect(await s.get('h', 'metadata')).toEqual(big);
    await expect(s.get('nope', 'etag')).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('the probe refuses a filesystem without user xattrs, naming the root and --sidecar', async () => {
    expect(() => probeXattrs(dir)).not.toThrow();
    // procfs keeps no user.* attributes.
    let err: unknown;
    try {
      probeXattrs('/proc/self');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(XattrUnsupportedError);
    expect([(err as XattrUnsupportedError).code, (err as Error).name]).toEqual([
      'VGW_ERR_POSIX_XATTR_UNSUPPORTED',
      'XattrUnsupportedError',
    ]);
    expect((err as Error).message).toContain('/proc/self');
    expect((err as Error).message).toContain('--sidecar');
    expect(xattrList(dir)).toEqual([]); // the probe cleaned up after itself
  });
});

describe('on-disk attributes (docs/posix-layout.md), read with libc and getfattr', () => {
  let f: Fixture;
  let bucket: string;
  bucketEach((fx, b) => {
    f = fx;
    bucket = b;
  });

  it('an object carries etag, content-type, metadata, checksums, X-Amz-Tagging', async () => {
    await f.backend.putObject(ctx(), {
      bucket,
      key: 'dir/obj',
      body: body('layout'),
      contentType: 'text/x-test',
      cacheControl: 'no-cache',
      metadata: { owner: 'me', n: '1' },
      tagging: { k: 'v' },
    });
    const path = join(f.root, bucket, 'dir', 'obj');
    const md5 = createHash('md5').update('layout').digest('hex');
    for (const read of [(a: string) => xattrGet(path, `user.${a}`), (a: string) => getfattr(path, a)]) {
      expect(read('etag')?.toString()).toBe(`"${md5}"`);
      expect(read('content-type')?.toString()).toBe('text/x-test');
      expect(read('cache-control')?.toString()).toBe('no-cache');
      expect(JSON.parse(read('metadata')?.toString() ?? '')).toEqual({ owner: 'me', n: '1' });
      expect(JSON.parse(read('X-Amz-Tagging')?.toString() ?? '')).toEqual({ k: 'v' });
      const crc = getChecksum('CRC64NVME').create();
      crc.update(Buffer.from('layout'));
      expect(JSON.parse(read('checksums')?.toString() ?? '')).toEqual({
        Algorithm: 'CRC64NVME',
        Type: 'FULL_OBJECT',
        CRC64NVME: crc.digest(),
      });
    }
    expect(getfattrNames(path)).toEqual([
      'X-Amz-Tagging',
      'cache-control',
      'checksums',
      'content-type',
      'etag',
      'metadata',
    ]);
  });

  it('a bucket carries its acl; a folder object the MD5 of nothing', async () => {
    const aclJson = JSON.parse(getfattr(join(f.root, bucket), 'acl')?.toString() ?? '');
    expect(aclJson).toEqual(acl());
    await f.backend.putObject(ctx(), { bucket, key: 'folder/', body: body('') });
    expect(getfattr(join(f.root, bucket, 'folder'), 'etag')?.toString()).toBe(
      `"${createHash('md5').update('').digest('hex')}"`,
    );
    await f.backend.putBucketTagging(ctx(), bucket, { team: 'x' });
    expect(JSON.parse(getfattr(join(f.root, bucket), 'X-Amz-Tagging')?.toString() ?? '')).toEqual({
      team: 'x',
    });
  });

  it('multipart: objname on the hash dir, part files with etag and part-crc64nvme, mp-metadata on the object', async () => {
    const key = 'big/object';
    const up = await f.backend.createMultipartUpload(ctx(), { bucket, key, contentType: 'app/x' });
    const hashDir = join(f.root, bucket, '.sgwtmp', 'multipart', sha256Hex(key));
    expect(getfattr(hashDir, 'objname')?.toString()).toBe(key);
    const uploadDir = join(hashDir, up.uploadId);
    expect(getfattr(uploadDir, 'content-type')?.toString()).toBe('app/x');
    const p1data = Buffer.alloc(5 * 1024 * 1024, 1);
    const p2data = Buffer.from('tail');
    const p1 = await f.backend.uploadPart(ctx(), {
      bucket,
      key,
      uploadId: up.uploadId,
      partNumber: 1,
      body: body(p1data),
    });
    const p2 = await f.backend.uploadPart(ctx(), {
      bucket,
      key,
      uploadId: up.uploadId,
      partNumber: 2,
      body: body(p2data),
    });
    expect(await readdir(uploadDir)).toEqual(['1', '2']);
    expect(getfattr(join(uploadDir, '1'), 'etag')?.toString()).toBe(p1.etag);
    const crc = getChecksum('CRC64NVME').create();
    crc.update(p2data);
    expect(getfattr(join(uploadDir, '2'), 'part-crc64nvme')?.toString()).toBe(crc.digest());
    const done = await f.backend.completeMultipartUpload(ctx(), {
      bucket,
      key,
      uploadId: up.uploadId,
      parts: [
        { partNumber: 1, etag: p1.etag },
        { partNumber: 2, etag: p2.etag },
      ],
    });
    const objPath = join(f.root, bucket, 'big', 'object');
    expect(getfattr(objPath, 'etag')?.toString()).toBe(done.etag);
    expect(done.etag).toMatch(/^"[0-9a-f]{32}-2"$/);
    const mp = JSON.parse(gunzipSync(getfattr(objPath, 'mp-metadata') as Buffer).toString());
    expect(mp).toEqual({ uploadId: up.uploadId, parts: [p1data.length, p1data.length + 4] });
    expect(getfattr(objPath, 'content-type')?.toString()).toBe('app/x');
    // The upload directory and its hash directory are gone.
    expect(await readdir(join(f.root, bucket, '.sgwtmp', 'multipart'))).toEqual([]);
    expect((await stat(objPath)).size).toBe(p1data.length + 4);
  });
});

describe('sidecar mode', () => {
  let f: Fixture;
  beforeEach(async () => {
    f = await fixture({ sidecarName: 'meta' });
  });
  afterEach(() => f.cleanup());

  it('keeps attributes as files under <sidecar>/<bucket>[/<key>]/meta/<attr>, none as xattrs', async () => {
    expect(f.backend.metaStore).toBe('sidecar');
    const bucket = await withBucket(f);
    const sc = join(f.dir, 'meta');
    expect(JSON.parse(await readFile(join(sc, bucket, 'meta', 'acl'), 'utf8'))).toEqual(acl());
    const etag = await put(f, bucket, 'a/b', 'sidecar data');
    expect(await readFile(join(sc, bucket, 'a/b', 'meta', 'etag'), 'utf8')).toBe(etag);
    expect(xattrList(join(f.root, bucket, 'a/b'))).toEqual([]);
    await f.backend.putObject(ctx(), { bucket, key: 'a/b', body: body('v2'), contentType: 'c/t' });
    const h = await f.backend.headObject(ctx(), { bucket, key: 'a/b' });
    expect(h.contentType).toBe('c/t');
    expect(h.etag).toBe(`"${createHash('md5').update('v2').digest('hex')}"`);
    // No sidecar entries are left for temp files.
    expect(await readdir(join(sc, bucket)).then((n) => n.includes('.sgwtmp'))).toBe(false);
    await f.backend.deleteObject(ctx(), { bucket, key: 'a/b' });
    await expect(stat(join(sc, bucket, 'a'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('carries part attributes through a multipart upload', async () => {
    const bucket = await withBucket(f);
    const up = await f.backend.createMultipartUpload(ctx(), { bucket, key: 'm', metadata: { x: 'y' } });
    const p = await f.backend.uploadPart(ctx(), {
      bucket,
      key: 'm',
      uploadId: up.uploadId,
      partNumber: 1,
      body: body('p'),
    });
    const listed = await f.backend.listMultipartUploads(ctx(), { bucket, maxUploads: 10 });
    expect(listed.uploads.map((u) => u.key)).toEqual(['m']);
    await f.backend.completeMultipartUpload(ctx(), {
      bucket,
      key: 'm',
      uploadId: up.uploadId,
      parts: [{ partNumber: 1, etag: p.etag }],
    });
    const h = await f.backend.headObject(ctx(), { bucket, key: 'm' });
    expect(h.metadata).toEqual({ x: 'y' });
    expect(h.etag).toMatch(/-1"$/);
    expect((await readAll((await f.backend.getObject(ctx(), { bucket, key: 'm' })).body)).toString()).toBe(
      'p',
    );
  });

  it('works where xattrs are refused (the option the probe error suggests)', async () => {
    const s = new SidecarStore(join(f.dir, 'sc2'));
    await s.set('b/k', 'etag', 'v');
    expect((await s.get('b/k', 'etag'))?.toString()).toBe('v');
    expect(await s.list('b/k')).toEqual(['etag']);
    await s.dropped('b/k');
    expect(await s.get('b/k', 'etag')).toBeUndefined();
  });
});

describe('nometa mode', () => {
  let f: Fixture;
  beforeEach(async () => {
    f = await fixture({ nometa: true });
  });
  afterEach(() => f.cleanup());

  it('stores data only: objects read back, no attributes are written', async () => {
    expect(f.backend.metaStore).toBe('none');
    const bucket = await withBucket(f);
    const r = await f.backend.putObject(ctx(), { bucket, key: 'k', body: body('plain'), contentType: 'x/y' });
    expect(r.etag).toBe(`"${createHash('md5').update('plain').digest('hex')}"`);
    expect(xattrList(join(f.root, bucket, 'k'))).toEqual([]);
    expect(xattrList(join(f.root, bucket))).toEqual([]);
    const g = await f.backend.getObject(ctx(), { bucket, key: 'k' });
    expect((await readAll(g.body)).toString()).toBe('plain');
    expect(g.contentType).toBeUndefined();
    const list = await f.backend.listObjectsV2(ctx(), { bucket, maxKeys: 10 });
    expect(list.contents.map((o) => o.key)).toEqual(['k']);
  });

  it('completes multipart uploads by recomputing part ETags from the data', async () => {
    const bucket = await withBucket(f);
    const at = await startUpload(f.backend, bucket, 'm');
    const parts = await sendParts(f.backend, at, ['abc']);
    await complete(f.backend, at, parts);
    expect((await readAll((await f.backend.getObject(ctx(), { bucket, key: 'm' })).body)).toString()).toBe(
      'abc',
    );
    expect(await codeOf(complete(f.backend, at, parts))).toBe('NoSuchUpload');
  });
});

describe('PosixBackend.open', () => {
  it('refuses a root without user xattr support with XattrUnsupportedError', async () => {
    await expect(PosixBackend.open({ root: '/proc/self' })).rejects.toBeInstanceOf(XattrUnsupportedError);
  });
});
