// Path traversal against the posix backend: keys and bucket names with '..', encoded dots,
// absolute paths, NUL bytes, the temp area; symlinks planted inside the root that point outside
// (a file, a directory, a whole bucket). Files planted next to the root must never be read
// (their bytes never come back), written, created or removed, whatever the operation.
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acl, body, codeOf, ctx, type Fixture, fixture, OWNER, readAll, withBucket } from './helpers.js';

const SECRET = 'outside-the-root: must never be served';
let f: Fixture;
let outside: string;
let before: Map<string, string>;

/** Every file and directory under `dir` (not following links) with a content hash. */
async function snapshot(dir: string, skip: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const e of await readdir(dir, { withFileTypes: true, recursive: true })) {
    const path = join(e.parentPath, e.name);
    if (path === skip || path.startsWith(`${skip}/`)) continue;
    const st = await stat(path).catch(() => undefined);
    const hash = e.isFile()
      ? createHash('sha256')
          .update(await readFile(path))
          .digest('hex')
      : e.isDirectory()
        ? 'dir'
        : 'other';
    out.set(relative(dir, path), `${hash}:${st?.mtimeMs ?? 0}`);
  }
  return out;
}

beforeEach(async () => {
  f = await fixture();
  await withBucket(f, 'bucket');
  outside = join(f.dir, 'outside');
  await mkdir(join(outside, 'sub'), { recursive: true });
  await writeFile(join(outside, 'secret.txt'), SECRET);
  await writeFile(join(outside, 'sub', 'secret.txt'), SECRET);
  await writeFile(join(f.dir, 'secret.txt'), SECRET);
  await writeFile(join(f.dir, 'root-evil'), SECRET); // a sibling whose name extends the root's
  // symlinks inside the root pointing out: a file, a directory, and a whole bucket
  await symlink(join(outside, 'secret.txt'), join(f.root, 'bucket', 'link-file'));
  await symlink(outside, join(f.root, 'bucket', 'link-dir'));
  await symlink('../../outside', join(f.root, 'bucket', 'rel-link-dir'));
  await symlink(outside, join(f.root, 'evilbucket'));
  before = await snapshot(f.dir, f.root);
});

afterEach(async () => {
  // nothing outside the root was created, changed or removed
  expect(await snapshot(f.dir, f.root)).toEqual(before);
  await f.cleanup();
});

/** Runs `op`; it may fail, but if it returns data, that data is not the outside secret. */
async function neverLeaks(op: () => Promise<unknown>): Promise<string> {
  try {
    const r = (await op()) as { body?: NodeJS.ReadableStream } | undefined;
    if (r && typeof r === 'object' && 'body' in r && r.body) {
      const data = (await readAll(r.body as never)).toString();
      expect(data).not.toContain(SECRET);
    }
    expect(JSON.stringify(r ?? null)).not.toContain(SECRET);
    return 'ok';
  } catch (err) {
    const code = (err as { code?: string }).code ?? String(err);
    expect(code, String(err)).toMatch(/^[A-Z][A-Za-z]+$/); // an S3 error code, not a raw errno
    return code;
  }
}

const HOSTILE_KEYS = [
  '../secret.txt',
  '../../secret.txt',
  '../../outside/secret.txt',
  'a/../../secret.txt',
  '..',
  '.',
  './secret.txt',
  '/etc/passwd',
  '//etc/passwd',
  'a//../../secret.txt',
  'secret\0.txt',
  '..\0/secret.txt',
  '.sgwtmp/x',
  '.sgwtmp/../../secret.txt',
  '..%2fsecret.txt', // a literal key: stays a file name inside the root
  '%2e%2e/secret.txt',
  'link-file',
  'link-dir/secret.txt',
  'link-dir/sub/secret.txt',
  'rel-link-dir/secret.txt',
  'link-dir/new-file',
  'link-dir/',
];
const HOSTILE_BUCKETS = ['..', '.', '../outside', 'bucket/../..', '', 'a\0b', 'evilbucket', '/tmp'];

describe('hostile keys never escape the root', () => {
  for (const key of HOSTILE_KEYS) {
    it(`key ${JSON.stringify(key)}`, async () => {
      const b = 'bucket';
      await neverLeaks(() => f.backend.getObject(ctx(), { bucket: b, key }));
      await neverLeaks(() => f.backend.headObject(ctx(), { bucket: b, key }));
      await neverLeaks(() => f.backend.putObject(ctx(), { bucket: b, key, body: body('overwritten') }));
      await neverLeaks(() => f.backend.deleteObject(ctx(), { bucket: b, key }));
      await neverLeaks(() =>
        f.backend.copyObject(ctx(), { bucket: b, key: 'copy-dst', source: { bucket: b, key } }),
      );
      await neverLeaks(async () => {
        const { uploadId } = await f.backend.createMultipartUpload(ctx(), { bucket: b, key });
        await f.backend.uploadPart(ctx(), { bucket: b, key, uploadId, partNumber: 1, body: body('part') });
        return f.backend.completeMultipartUpload(ctx(), { bucket: b, key, uploadId, parts: [] });
      });
      // the copy, if one was made, holds no outside bytes
      await neverLeaks(() => f.backend.getObject(ctx(), { bucket: b, key: 'copy-dst' }));
    });
  }

  it('listings do not walk out through links', async () => {
    for (const prefix of ['', 'link-dir/', 'rel-link-dir/', '../', 'link']) {
      const r = await f.backend.listObjectsV2(ctx(), { bucket: 'bucket', prefix, maxKeys: 1000 });
      expect(JSON.stringify(r)).not.toContain('secret.txt');
    }
  });
});

describe('hostile bucket names never escape the root', () => {
  for (const bucket of HOSTILE_BUCKETS) {
    it(`bucket ${JSON.stringify(bucket)}`, async () => {
      await neverLeaks(() => f.backend.getObject(ctx(), { bucket, key: 'secret.txt' }));
      await neverLeaks(() => f.backend.getObject(ctx(), { bucket, key: 'sub/secret.txt' }));
      await neverLeaks(() => f.backend.putObject(ctx(), { bucket, key: 'dropped', body: body('x') }));
      await neverLeaks(() => f.backend.deleteObject(ctx(), { bucket, key: 'secret.txt' }));
      await neverLeaks(() => f.backend.listObjectsV2(ctx(), { bucket, maxKeys: 1000 }));
      await neverLeaks(() => f.backend.createBucket(ctx(), { bucket, owner: OWNER, acl: acl() }));
      await neverLeaks(() => f.backend.deleteBucket(ctx(), bucket));
    });
  }
});

it('a literal "%2e%2e" key is an ordinary file inside the bucket', async () => {
  await f.backend.putObject(ctx(), { bucket: 'bucket', key: '%2e%2e/x', body: body('inside') });
  expect((await readFile(join(f.root, 'bucket', '%2e%2e', 'x'))).toString()).toBe('inside');
  expect(await codeOf(f.backend.getObject(ctx(), { bucket: 'bucket', key: '../x' }))).not.toBe(undefined);
});

it("a bucket's temp area that is a link out of the root takes no upload", async () => {
  // Temp files are checked once, on their directory, when created (fs/temp-file.ts).
  await withBucket(f, 'linked-tmp');
  await symlink(outside, join(f.root, 'linked-tmp', '.sgwtmp'));
  expect(await codeOf(f.backend.putObject(ctx(), { bucket: 'linked-tmp', key: 'k', body: body('x') }))).toBe(
    'AccessDenied',
  );
  expect(await readdir(outside)).toEqual(expect.arrayContaining(['secret.txt', 'sub']));
  expect((await readdir(outside)).length).toBe(2);
});

describe('special files planted in a bucket', () => {
  it('a FIFO named like a key is no object, and reading it never waits for a writer', async () => {
    const { execFileSync } = await import('node:child_process');
    execFileSync('mkfifo', [join(f.root, 'bucket', 'pipe')]);
    // a blocking open(2) of a FIFO waits for a writer: without O_NONBLOCK this test times out
    expect(await codeOf(f.backend.getObject(ctx(), { bucket: 'bucket', key: 'pipe' }))).toBe('NoSuchKey');
    expect(await codeOf(f.backend.headObject(ctx(), { bucket: 'bucket', key: 'pipe' }))).toBe('NoSuchKey');
    const r = await f.backend.listObjectsV2(ctx(), { bucket: 'bucket', maxKeys: 1000 });
    expect(r.contents.map((o) => o.key)).not.toContain('pipe');
  }, 10_000);
});
