// Parts written in place (multipart/in-place.ts): an upload whose parts all have one size but the
// last is completed by publishing the upload's assembly file itself (the object's inode is the
// assembly file's: nothing copied), and that object is byte for byte, ETag, checksums and
// attributes the same as the one the part-file path (VGWRDMA_INPLACE_PARTS=off) makes from the
// same parts. Every other shape falls back and still gives the right object: a part smaller than
// the stride before the last, a part uploaded again, a Complete naming fewer parts than were
// written, a part still being written. A failed part write gives its slot up (the retry goes in
// place); a failed Complete leaves the upload completable; an abort leaves nothing behind.
import { createHash, randomBytes } from 'node:crypto';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { ChecksumAlgorithm, ChecksumType } from '@vgwrdma/backend-contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { uploadRel } from '../../src/fs/layout.js';
import { body, codeOf, ctx, type Fixture, fixture, readAll, withBucket } from '../helpers.js';

const MiB = 1024 * 1024;
let f: Fixture;
let bucket: string;
beforeEach(async () => {
  f = await fixture();
  bucket = await withBucket(f);
});
afterEach(async () => {
  delete process.env.VGWRDMA_INPLACE_PARTS;
  await f.cleanup();
});

const uploadDir = (key: string, id: string) => join(f.root, uploadRel(bucket, key, id));
const assemblyIno = async (key: string, id: string) =>
  (await stat(join(uploadDir(key, id), 'assembly')).catch(() => undefined))?.ino;

interface Opts {
  checksum?: { algorithm: ChecksumAlgorithm; type?: ChecksumType };
}

async function create(key: string, o: Opts = {}) {
  const up = await f.backend.createMultipartUpload(ctx(), {
    bucket,
    key,
    contentType: 'application/x-test',
    metadata: { origin: 'in-place' },
    ...(o.checksum
      ? {
          checksumAlgorithm: o.checksum.algorithm,
          ...(o.checksum.type ? { checksumType: o.checksum.type } : {}),
        }
      : {}),
  });
  return up.uploadId;
}

async function part(key: string, uploadId: string, partNumber: number, data: Buffer) {
  const p = await f.backend.uploadPart(ctx(), {
    bucket,
    key,
    uploadId,
    partNumber,
    body: body(data),
    contentLength: data.length,
  });
  return { partNumber, etag: p.etag, ...(p.checksums ? { checksums: p.checksums } : {}) };
}

/** Uploads `datas` as parts 1..N, all at once (as a managed client does), last one first. */
async function uploadAll(key: string, uploadId: string, datas: Buffer[]) {
  const order = datas.map((_, i) => i).reverse();
  const parts = new Array<Awaited<ReturnType<typeof part>>>(datas.length);
  await Promise.all(
    order.map(async (i) => {
      parts[i] = await part(key, uploadId, i + 1, datas[i] as Buffer);
    }),
  );
  return parts;
}

async function complete(key: string, uploadId: string, parts: { partNumber: number; etag: string }[]) {
  return f.backend.completeMultipartUpload(ctx(), { bucket, key, uploadId, parts });
}

async function readObject(key: string) {
  const o = await f.backend.getObject(ctx(), { bucket, key, checksumMode: true });
  const head = await f.backend.headObject(ctx(), { bucket, key, checksumMode: true });
  return { bytes: await readAll(o.body), head, ino: (await stat(join(f.root, bucket, key))).ino };
}

function sizes(...mibs: number[]): Buffer[] {
  return mibs.map((m) => randomBytes(Math.round(m * MiB)));
}

/** Uploads and completes `datas` at `key` on the path the environment selects. */
async function roundTrip(key: string, datas: Buffer[], o: Opts = {}) {
  const id = await create(key, o);
  const parts = await uploadAll(key, id, datas);
  const ino = await assemblyIno(key, id);
  const out = await complete(key, id, parts);
  const obj = await readObject(key);
  return { out, obj, inPlace: ino !== undefined && obj.ino === ino };
}

function multipartEtag(datas: Buffer[]): string {
  const md5s = datas.map((d) => createHash('md5').update(d).digest());
  return `"${createHash('md5').update(Buffer.concat(md5s)).digest('hex')}-${datas.length}"`;
}

describe('aligned parts: Complete publishes the assembly file', () => {
  it.each<[string, Opts]>([
    ['no checksum', {}],
    ['CRC32C composite', { checksum: { algorithm: 'CRC32C', type: 'COMPOSITE' } }],
    ['CRC32 full object', { checksum: { algorithm: 'CRC32', type: 'FULL_OBJECT' } }],
    ['CRC64NVME', { checksum: { algorithm: 'CRC64NVME' } }],
  ])('the same object as the part-file path (%s)', async (_name, o) => {
    const datas = sizes(5, 5, 5, 1.5);
    const fast = await roundTrip('fast', datas, o);
    process.env.VGWRDMA_INPLACE_PARTS = 'off';
    const slow = await roundTrip('slow', datas, o);
    expect(fast.inPlace).toBe(true);
    expect(slow.inPlace).toBe(false);
    expect(fast.obj.bytes.equals(Buffer.concat(datas))).toBe(true);
    expect(slow.obj.bytes.equals(fast.obj.bytes)).toBe(true);
    expect(fast.out.etag).toBe(multipartEtag(datas));
    expect(fast.out).toEqual({ ...slow.out, key: 'fast' });
    const { lastModified: _a, ...fastHead } = fast.obj.head;
    const { lastModified: _b, ...slowHead } = slow.obj.head;
    expect(fastHead).toEqual({ ...slowHead, key: 'fast' });
    expect(fastHead.size).toBe(Buffer.concat(datas).length);
    expect(fastHead.metadata).toEqual({ origin: 'in-place' });
    // partNumber reads (mp-metadata) see the same parts.
    for (const partNumber of [1, 4]) {
      const a = await f.backend.getObject(ctx(), { bucket, key: 'fast', partNumber });
      const b = await f.backend.getObject(ctx(), { bucket, key: 'slow', partNumber });
      expect((await readAll(a.body)).equals(await readAll(b.body))).toBe(true);
    }
  });

  it('a single part, and a last part of one byte', async () => {
    const one = await roundTrip('one', sizes(6));
    expect(one.inPlace).toBe(true);
    const datas = [randomBytes(5 * MiB), randomBytes(1)];
    const tail = await roundTrip('tail', datas);
    expect(tail.inPlace).toBe(true);
    expect(tail.obj.bytes.equals(Buffer.concat(datas))).toBe(true);
  });

  it('ListParts shows in-place parts like part files', async () => {
    const datas = sizes(5, 5, 2);
    const id = await create('listed');
    const parts = await uploadAll('listed', id, datas);
    const listed = await f.backend.listParts(ctx(), { bucket, key: 'listed', uploadId: id, maxParts: 1000 });
    expect(listed.parts.map((p) => [p.partNumber, p.etag, p.size])).toEqual(
      parts.map((p, i) => [p.partNumber, p.etag, (datas[i] as Buffer).length]),
    );
  });

  it('two uploads of one key at once each get their own bytes', async () => {
    const a = sizes(5, 5, 1);
    const b = sizes(5, 5, 3);
    const [ia, ib] = [await create('same'), await create('same')];
    const [pa, pb] = await Promise.all([uploadAll('same', ia, a), uploadAll('same', ib, b)]);
    await complete('same', ia, pa);
    expect((await readObject('same')).bytes.equals(Buffer.concat(a))).toBe(true);
    await complete('same', ib, pb);
    expect((await readObject('same')).bytes.equals(Buffer.concat(b))).toBe(true);
  });
});

describe('with a sidecar attribute store (--sidecar)', () => {
  it('the same object as the part-file path', async () => {
    await f.cleanup();
    f = await fixture({ sidecarName: 'meta' });
    bucket = await withBucket(f);
    const datas = sizes(5, 5, 1);
    const fast = await roundTrip('fast', datas, { checksum: { algorithm: 'CRC32C' } });
    process.env.VGWRDMA_INPLACE_PARTS = 'off';
    const slow = await roundTrip('slow', datas, { checksum: { algorithm: 'CRC32C' } });
    expect([fast.inPlace, slow.inPlace]).toEqual([true, false]);
    expect(fast.obj.bytes.equals(slow.obj.bytes)).toBe(true);
    const { lastModified: _a, ...fastHead } = fast.obj.head;
    const { lastModified: _b, ...slowHead } = slow.obj.head;
    expect(fastHead).toEqual({ ...slowHead, key: 'fast' });
  });
});

describe('in a versioned bucket', () => {
  it('each Complete publishes its assembly file as a new version; the older stays readable', async () => {
    await f.cleanup();
    f = await fixture({ versioningName: 'versions' });
    bucket = await withBucket(f);
    await f.backend.putBucketVersioning(ctx(), bucket, 'Enabled');
    const [a, b] = [sizes(5, 1), sizes(5, 2)];
    const first = await roundTrip('v', a);
    const second = await roundTrip('v', b);
    expect([first.inPlace, second.inPlace]).toEqual([true, true]);
    expect(first.out.versionId).toBeDefined();
    expect(second.out.versionId).not.toBe(first.out.versionId);
    const old = await f.backend.getObject(ctx(), {
      bucket,
      key: 'v',
      versionId: first.out.versionId as string,
    });
    expect((await readAll(old.body)).equals(Buffer.concat(a))).toBe(true);
    expect((await readObject('v')).bytes.equals(Buffer.concat(b))).toBe(true);
  });
});

describe('other shapes fall back to copying, and give the right object', () => {
  it('a part before the last smaller than the stride', async () => {
    const datas = sizes(6, 5, 1);
    const r = await roundTrip('odd', datas);
    expect(r.inPlace).toBe(false);
    expect(r.obj.bytes.equals(Buffer.concat(datas))).toBe(true);
    expect(r.out.etag).toBe(multipartEtag(datas));
  });

  it('a part uploaded again: Complete takes the ETag it names, old or new', async () => {
    const datas = sizes(5, 5, 1);
    for (const which of ['new', 'old'] as const) {
      const key = `again-${which}`;
      const id = await create(key);
      const parts = await uploadAll(key, id, datas);
      const again = randomBytes(5 * MiB);
      const second = await part(key, id, 2, again);
      const named = which === 'new' ? [parts[0], second, parts[2]] : parts;
      const ino = await assemblyIno(key, id);
      await complete(key, id, named as { partNumber: number; etag: string }[]);
      const obj = await readObject(key);
      const want = which === 'new' ? [datas[0], again, datas[2]] : datas;
      expect(obj.bytes.equals(Buffer.concat(want as Buffer[]))).toBe(true);
      // Naming the first upload of every part, the assembly file is still the object.
      expect(obj.ino === ino).toBe(which === 'old');
    }
  });

  it('a Complete naming fewer parts than were written keeps the rest for a retry', async () => {
    const datas = sizes(5, 5, 5, 2);
    const id = await create('fewer');
    const parts = await uploadAll('fewer', id, datas);
    // Part 3 named with a wrong ETag: InvalidPart, the upload stays.
    const bad = [parts[0], parts[1], { partNumber: 3, etag: `"${'0'.repeat(32)}"` }];
    expect(await codeOf(complete('fewer', id, bad as { partNumber: number; etag: string }[]))).toBe(
      'InvalidPart',
    );
    const r = await complete('fewer', id, parts.slice(0, 3));
    expect(r.etag).toBe(multipartEtag(datas.slice(0, 3)));
    expect((await readObject('fewer')).bytes.equals(Buffer.concat(datas.slice(0, 3)))).toBe(true);
  });

  it('a part still being written keeps Complete off the assembly file', async () => {
    const datas = sizes(5, 5, 1);
    const id = await create('busy');
    const parts = await uploadAll('busy', id, datas);
    // Part 4 starts and stalls (its body never ends) while Complete names 1..3.
    const stalled = new Readable({ read() {} });
    stalled.push(randomBytes(MiB));
    const ac = new AbortController();
    const writing = f.backend
      .uploadPart(ctx(ac.signal), {
        bucket,
        key: 'busy',
        uploadId: id,
        partNumber: 4,
        body: stalled,
        contentLength: 5 * MiB,
      })
      .catch((err: unknown) => err);
    while (!(await readdir(uploadDir('busy', id))).includes('4.slot'))
      await new Promise((r) => setTimeout(r, 5));
    const ino = await assemblyIno('busy', id);
    await complete('busy', id, parts);
    const obj = await readObject('busy');
    expect(obj.ino).not.toBe(ino);
    expect(obj.bytes.equals(Buffer.concat(datas))).toBe(true);
    ac.abort();
    await writing;
    expect(obj.bytes.length).toBe((await readObject('busy')).bytes.length);
  });
});

describe('failures and abort', () => {
  it('a part whose body ends short gives its slot up; the retry goes in place', async () => {
    const datas = sizes(5, 5, 1);
    const id = await create('retry');
    const first = await part('retry', id, 1, datas[0] as Buffer);
    const short = f.backend.uploadPart(ctx(), {
      bucket,
      key: 'retry',
      uploadId: id,
      partNumber: 2,
      body: body((datas[1] as Buffer).subarray(0, 3 * MiB)),
      contentLength: 5 * MiB,
    });
    expect(await codeOf(short)).toBe('IncompleteBody');
    expect(await readdir(uploadDir('retry', id))).not.toContain('2.slot');
    const rest = [
      await part('retry', id, 2, datas[1] as Buffer),
      await part('retry', id, 3, datas[2] as Buffer),
    ];
    const ino = await assemblyIno('retry', id);
    await complete('retry', id, [first, ...rest]);
    const obj = await readObject('retry');
    expect(obj.ino).toBe(ino);
    expect(obj.bytes.equals(Buffer.concat(datas))).toBe(true);
  });

  it('a Complete that fails after taking the assembly file leaves the upload completable', async () => {
    const datas = sizes(5, 5, 1);
    const id = await create('again', { checksum: { algorithm: 'CRC32', type: 'FULL_OBJECT' } });
    const parts = await uploadAll('again', id, datas);
    const wrong = f.backend.completeMultipartUpload(ctx(), {
      bucket,
      key: 'again',
      uploadId: id,
      parts,
      checksums: { CRC32: 'AAAAAA==' },
    });
    expect(await codeOf(wrong)).toBe('BadDigest');
    expect(await codeOf(f.backend.headObject(ctx(), { bucket, key: 'again' }))).toBe('NoSuchKey');
    const ino = await assemblyIno('again', id);
    await complete('again', id, parts);
    const obj = await readObject('again');
    expect(obj.ino).toBe(ino);
    expect(obj.bytes.equals(Buffer.concat(datas))).toBe(true);
  });

  it('an abort leaves no upload, no object and no file behind', async () => {
    const id = await create('gone');
    await uploadAll('gone', id, sizes(5, 5, 1));
    expect(await assemblyIno('gone', id)).toBeDefined();
    await f.backend.abortMultipartUpload(ctx(), { bucket, key: 'gone', uploadId: id });
    const listed = await f.backend.listMultipartUploads(ctx(), { bucket, maxUploads: 1000 });
    expect(listed.uploads).toEqual([]);
    expect(await codeOf(f.backend.headObject(ctx(), { bucket, key: 'gone' }))).toBe('NoSuchKey');
    const tmp = join(f.root, bucket, '.sgwtmp');
    const left = await readdir(tmp, { recursive: true }).catch(() => [] as string[]);
    const files = [];
    for (const name of left) if ((await stat(join(tmp, name))).isFile()) files.push(name);
    expect(files).toEqual([]);
    expect(await codeOf(part('gone', id, 4, randomBytes(MiB)))).toBe('NoSuchUpload');
  });
});
