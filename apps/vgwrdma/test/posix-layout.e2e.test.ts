// What the gateway leaves on disk, checked with the operator's tools: the xattrs of
// docs/posix-layout.md read back with getfattr, and an upload cut off mid-body leaving neither an
// object nor anything under <bucket>/.sgwtmp.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { request } from 'node:http';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { HeadObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { sceneTest } from '@vgwrdma/test-kit/scene';
import { describe, expect, it, vi } from 'vitest';
import { md5Hex } from './helpers/files.js';

const run = promisify(execFile);
const GETFATTR = ['/usr/bin/getfattr', '/bin/getfattr'].find((path) => existsSync(path));

const bucket = 'layout';
const test = sceneTest({ buckets: [bucket] });
let root: string;
let client: S3Client;
test.beforeAll(({ scene }) => {
  ({ root, s3: client } = scene);
});

/** Parses `getfattr -d -m - -e text` output into name → value (escapes undone). */
function parseGetfattr(output: string): Map<string, string> {
  const attrs = new Map<string, string>();
  for (const line of output.split('\n')) {
    const match = /^([^#=][^=]*)="(.*)"$/.exec(line);
    if (!match?.[1] || match[2] === undefined) continue;
    const value = match[2].replace(/\\(\d{3}|.)/g, (_, esc: string) =>
      /^\d{3}$/.test(esc) ? String.fromCharCode(Number.parseInt(esc, 8)) : esc,
    );
    attrs.set(match[1], value);
  }
  return attrs;
}

async function rawAttr(file: string, name: string): Promise<string> {
  const { stdout } = await run(GETFATTR!, ['--only-values', '--absolute-names', '-n', name, file], {
    encoding: 'utf8',
  });
  return stdout;
}

async function filesUnder(dir: string): Promise<string[]> {
  if (!existsSync(dir)) return [];
  const entries = await readdir(dir, { recursive: true });
  const files: string[] = [];
  for (const entry of entries) {
    if (!(await stat(join(dir, entry))).isDirectory()) files.push(entry);
  }
  return files;
}

describe.skipIf(GETFATTR === undefined)('on-disk metadata (getfattr from Debian attr)', () => {
  it('stores etag, content type and user metadata as user.* xattrs', async () => {
    const body = 'layout check\n';
    await client.send(
      new PutObjectCommand({
        Bucket: bucket,
        Key: 'a/b/obj.txt',
        Body: body,
        ContentType: 'text/x-e2e',
        CacheControl: 'max-age=60',
        Metadata: { Color: 'blue', shape: 'round' },
      }),
    );
    const file = join(root, bucket, 'a/b/obj.txt');
    expect((await stat(file)).isFile()).toBe(true);
    const { stdout } = await run(GETFATTR!, ['--absolute-names', '-d', '-m', '-', '-e', 'text', file], {
      encoding: 'utf8',
    });
    const attrs = parseGetfattr(stdout);
    expect(attrs.get('user.content-type')).toBe('text/x-e2e');
    expect(attrs.get('user.cache-control')).toBe('max-age=60');
    expect(JSON.parse(attrs.get('user.metadata') ?? 'null')).toEqual({ color: 'blue', shape: 'round' });
    expect(attrs.has('user.etag')).toBe(true);
    // The stored etag is quoted, exactly as versitygw writes it.
    expect(await rawAttr(file, 'user.etag')).toBe(`"${md5Hex(body)}"`);
    // Parents of the key are plain directories without an etag.
    const parent = await run(
      GETFATTR!,
      ['--absolute-names', '-d', '-m', '-', '-e', 'text', join(root, bucket, 'a/b')],
      { encoding: 'utf8' },
    );
    expect(parseGetfattr(parent.stdout).has('user.etag')).toBe(false);
  });

  it('stores the computed checksums as JSON', async () => {
    await client.send(
      new PutObjectCommand({
        Bucket: bucket,
        Key: 'summed',
        Body: 'checksum me',
        ChecksumAlgorithm: 'SHA256',
      }),
    );
    const stdout = await rawAttr(join(root, bucket, 'summed'), 'user.checksums');
    const checksums = JSON.parse(stdout) as Record<string, string>;
    const { createHash } = await import('node:crypto');
    expect(checksums.SHA256).toBe(createHash('sha256').update('checksum me').digest('base64'));
  });

  it('marks a folder object with an etag', async () => {
    await client.send(new PutObjectCommand({ Bucket: bucket, Key: 'folder/', Body: new Uint8Array(0) }));
    const dir = join(root, bucket, 'folder');
    expect((await stat(dir)).isDirectory()).toBe(true);
    expect(await rawAttr(dir, 'user.etag')).toBe(`"${md5Hex('')}"`);
  });
});

describe('an upload cut off mid-body', () => {
  it('leaves no object and nothing under .sgwtmp', async () => {
    const key = 'interrupted.bin';
    const url = new URL(
      await getSignedUrl(client, new PutObjectCommand({ Bucket: bucket, Key: key }), { expiresIn: 300 }),
    );
    const declared = 8 * 1024 * 1024;
    const sentBeforeCut = 1024 * 1024;
    await new Promise<void>((resolve) => {
      const req = request(url, { method: 'PUT', headers: { 'content-length': String(declared) } });
      req.on('error', () => resolve());
      req.on('response', () => resolve());
      req.write(Buffer.alloc(sentBeforeCut, 0x61), () => {
        // Let the gateway start writing the temp file, then kill the connection.
        setImmediate(() => {
          req.destroy();
          resolve();
        });
      });
    });
    const tmp = join(root, bucket, '.sgwtmp');
    await vi.waitFor(
      async () => {
        expect(await filesUnder(tmp)).toEqual([]);
      },
      { timeout: 15_000, interval: 100 },
    );
    const head = client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
    await expect(head).rejects.toMatchObject({ name: 'NotFound' });
    expect(existsSync(join(root, bucket, key))).toBe(false);
    // The gateway is still healthy after the aborted request.
    await client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: 'second try' }));
    await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
    expect(await filesUnder(tmp)).toEqual([]);
  });
});
