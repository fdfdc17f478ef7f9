import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdir, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { getChecksum } from '@vgwrdma/backend-contract';
import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../src/fs/layout.js';
import { ownerId, PosixBackend } from '../src/index.js';
import { bucketEach, codeOf, ctx, deadPid, type Fixture, readAll } from './helpers.js';
import { complete, listedParts, numbered, pageThrough, sendPart, sendParts, startUpload } from './parts.js';

const MiB = 1024 * 1024;
let f: Fixture;
let bucket: string;
bucketEach((fx, b) => {
  f = fx;
  bucket = b;
});

async function upload(key: string, sizes: number[]) {
  const at = await startUpload(f.backend, bucket, key);
  const datas = sizes.map((size, i) => Buffer.alloc(size, i + 1));
  const parts = await sendParts(f.backend, at, datas);
  return { at, uploadId: at.uploadId, parts, data: Buffer.concat(datas), datas };
}

function expectedETag(datas: Buffer[]): string {
  const h = createHash('md5');
  for (const d of datas) h.update(createHash('md5').update(d).digest());
  return `"${h.digest('hex')}-${datas.length}"`;
}

describe('CompleteMultipartUpload', () => {
  it('is idempotent: a repeated complete answers the same ETag', async () => {
    const u = await upload('k', [5 * MiB, 10]);
    const first = await complete(f.backend, u.at, u.parts);
    expect(first.etag).toBe(expectedETag(u.datas));
    const again = await complete(f.backend, u.at, u.parts);
    expect(again.etag).toBe(first.etag);
    // A repeat naming other parts is not the same complete.
    expect(await codeOf(complete(f.backend, u.at, u.parts.slice(0, 1)))).toBe('NoSuchUpload');
  });

  it('concurrent completes with the same parts all succeed with one object', async () => {
    const u = await upload('c', [5 * MiB, 5 * MiB, 7]);
    const results = await Promise.all(Array.from({ length: 5 }, () => complete(f.backend, u.at, u.parts)));
    for (const r of results) expect(r.etag).toBe(expectedETag(u.datas));
    const got = await readAll((await f.backend.getObject(ctx(), { bucket, key: 'c' })).body);
    expect(got.equals(u.data)).toBe(true);
    expect(await readdir(join(f.root, bucket, '.sgwtmp', 'multipart'))).toEqual([]);
    expect((await readdir(join(f.root, bucket, '.sgwtmp'))).filter((n) => n !== 'multipart')).toEqual([]);
  });

  it('a failed complete releases the claim so a corrected one succeeds', async () => {
    const u = await upload('r', [10, 5 * MiB]);
    expect(await codeOf(complete(f.backend, u.at, u.parts))).toBe('EntityTooSmall');
    // Replace part 1 with a big enough one, then complete.
    const p1 = await sendPart(f.backend, u.at, 1, Buffer.alloc(5 * MiB, 9));
    const parts = [{ partNumber: 1, etag: p1.etag }, u.parts[1] as { partNumber: number; etag: string }];
    const done = await complete(f.backend, u.at, parts);
    expect(done.etag).toMatch(/-2"$/);
    expect((await f.backend.headObject(ctx(), { bucket, key: 'r' })).size).toBe(10 * MiB);
  });

  it('combines a FULL_OBJECT CRC32 from the data and a COMPOSITE SHA256 from the part checksums', async () => {
    const full = await startUpload(f.backend, bucket, 'f', {
      checksumAlgorithm: 'CRC32',
      checksumType: 'FULL_OBJECT',
    });
    const d1 = Buffer.alloc(5 * MiB, 3);
    const d2 = Buffer.from('end');
    const fullParts = await sendParts(f.backend, full, [d1, d2]);
    const crc = getChecksum('CRC32').create();
    crc.update(d1);
    crc.update(d2);
    const r = await complete(f.backend, full, fullParts, { checksums: { CRC32: crc.digest() } });
    expect(r.checksums).toEqual({ CRC32: crc.digest() });
    expect(r.checksumType).toBe('FULL_OBJECT');

    const comp = await f.backend.createMultipartUpload(ctx(), {
      bucket,
      key: 's',
      checksumAlgorithm: 'SHA256',
    });
    expect(comp.checksumType).toBe('COMPOSITE');
    const compAt = { bucket, key: 's', uploadId: comp.uploadId };
    const x = await sendPart(f.backend, compAt, 1, 'only');
    const sha = createHash('sha256').update('only').digest();
    expect(x.checksums).toEqual({ SHA256: sha.toString('base64') });
    const s = await complete(f.backend, compAt, numbered(x.etag));
    expect(s.checksums).toEqual({ SHA256: `${createHash('sha256').update(sha).digest('base64')}-1` });
    expect(s.checksumType).toBe('COMPOSITE');
  });

  it('derives the full-object CRC64NVME from part CRCs, or from the data when a part lacks one', async () => {
    const crcOf = (d: Buffer) => {
      const h = getChecksum('CRC64NVME').create();
      h.update(d);
      return h.digest();
    };
    for (const dropPartCrc of [false, true]) {
      const key = `crc-${dropPartCrc}`;
      const u = await upload(key, [5 * MiB, 5 * MiB + 3, 11]);
      if (dropPartCrc) {
        // As if part 2 came from a gateway that stored no part CRC: the data must be re-read.
        const dir = join(f.root, bucket, '.sgwtmp', 'multipart', sha256Hex(key), u.uploadId);
        execFileSync('setfattr', ['-x', 'user.part-crc64nvme', join(dir, '2')]);
      }
      const r = await complete(f.backend, u.at, u.parts);
      expect(r.checksums).toEqual({ CRC64NVME: crcOf(u.data) });
      const h = await f.backend.headObject(ctx(), { bucket, key, checksumMode: true });
      expect(h.checksums).toEqual({ CRC64NVME: crcOf(u.data) });
    }
  });

  it('an upload that names CRC64NVME combines each part once (regression: parts were counted twice)', async () => {
    const key = 'crc64-named';
    const at = await startUpload(f.backend, bucket, key, { checksumAlgorithm: 'CRC64NVME' });
    const datas = [Buffer.alloc(5 * MiB, 7), Buffer.from('tail')];
    const parts = await sendParts(f.backend, at, datas);
    const h = getChecksum('CRC64NVME').create();
    for (const d of datas) h.update(d);
    const r = await complete(f.backend, at, parts);
    expect([r.checksums, r.checksumType]).toEqual([{ CRC64NVME: h.digest() }, 'FULL_OBJECT']);
  });

  it('a claim left by a crashed complete is released at open, and the upload completes', async () => {
    const u = await upload('crashed', [5 * MiB, 4]);
    const dir = join(f.root, bucket, '.sgwtmp', 'multipart', sha256Hex('crashed'));
    const claim = join(dir, `${u.uploadId}.0123456789abcdef0123456789abcdef-2.inprogress`);
    await rename(join(dir, u.uploadId), claim);
    // Claimed by a process of this host that has exited since.
    execFileSync('setfattr', ['-n', 'user.vgwrdma-claim-owner', '-v', ownerId(deadPid()), claim]);
    expect(await codeOf(listedParts(f.backend, u.at))).toBe('NoSuchUpload');
    const reopened = await PosixBackend.open({ root: f.root });
    expect(await readdir(dir)).toEqual([u.uploadId]);
    const r = await complete(reopened, u.at, u.parts);
    expect(r.etag).toBe(expectedETag(u.datas));
  });

  it('refuses part numbers outside 1..10000', async () => {
    const at = await startUpload(f.backend, bucket, 'n');
    for (const partNumber of [0, 10001]) {
      expect(await codeOf(sendPart(f.backend, at, partNumber, 'x'))).toBe('InvalidArgument');
    }
  });
});

describe('ListParts and ListMultipartUploads', () => {
  it('pages parts by part-number marker', async () => {
    const at = await startUpload(f.backend, bucket, 'p');
    for (const n of [1, 2, 3, 10, 11]) await sendPart(f.backend, at, n, `part${n}`);
    const page1 = await f.backend.listParts(ctx(), { ...at, maxParts: 3 });
    expect(page1.parts.map((p) => p.partNumber)).toEqual([1, 2, 3]);
    expect(page1.isTruncated).toBe(true);
    expect(page1.nextPartNumberMarker).toBe(3);
    const page2 = await f.backend.listParts(ctx(), { ...at, maxParts: 3, partNumberMarker: 3 });
    expect(page2.parts.map((p) => [p.partNumber, p.size])).toEqual([
      [10, 6],
      [11, 6],
    ]);
    expect(page2.isTruncated).toBe(false);
  });

  it('lists uploads by key with prefix, delimiter and markers', async () => {
    const ids: Record<string, string> = {};
    for (const key of ['a/1', 'a/2', 'b', 'c/x/y', 'b']) {
      const up = await f.backend.createMultipartUpload(ctx(), { bucket, key });
      ids[`${key}#${Object.keys(ids).filter((k) => k.startsWith(`${key}#`)).length}`] = up.uploadId;
    }
    const all = await f.backend.listMultipartUploads(ctx(), { bucket, maxUploads: 100 });
    expect(all.uploads.map((u) => u.key)).toEqual(['a/1', 'a/2', 'b', 'b', 'c/x/y']);
    const delim = await f.backend.listMultipartUploads(ctx(), { bucket, maxUploads: 100, delimiter: '/' });
    expect(delim.commonPrefixes).toEqual(['a/', 'c/']);
    expect(delim.uploads.map((u) => u.key)).toEqual(['b', 'b']);
    const pre = await f.backend.listMultipartUploads(ctx(), {
      bucket,
      maxUploads: 100,
      prefix: 'c/',
      delimiter: '/',
    });
    expect(pre.commonPrefixes).toEqual(['c/x/']);
    // Page through one at a time: every upload exactly once.
    const pages = await pageThrough(
      10,
      (markers) => f.backend.listMultipartUploads(ctx(), { bucket, maxUploads: 1, ...markers }),
      (page) => ({ keyMarker: page.nextKeyMarker, uploadIdMarker: page.nextUploadIdMarker }),
    );
    const seen = pages.flatMap((page) => page.uploads.map((u) => u.uploadId));
    expect(seen.sort()).toEqual(Object.values(ids).sort());
  });
});
