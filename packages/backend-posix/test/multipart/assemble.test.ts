// CompleteMultipartUpload's assembly: parts concatenated in the kernel (copy_file_range) give the
// byte-exact object and S3's multipart ETag; where the file system declines (EXDEV, EOPNOTSUPP,
// ENOSYS) the same object comes out of the read/write fallback; a checksum that cannot be combined
// from the parts is computed over the bytes (the JS path).
import { createHash, randomBytes } from 'node:crypto';
import { constants } from 'node:os';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PosixEnv } from '../../src/env.js';
import { forceCopyRangeErrno } from '../../src/fs/copy-range.js';
import { uploadRel } from '../../src/fs/layout.js';
import { assemble } from '../../src/multipart/assemble.js';
import { ctx, type Fixture, fixture, readAll, withBucket } from '../helpers.js';
import { sendPart, startUpload } from '../parts.js';

const MiB = 1024 * 1024;
let f: Fixture;
let bucket: string;
beforeEach(async () => {
  // The copy path: parts in part files (in-place.test.ts covers parts written where the object is).
  process.env.VGWRDMA_INPLACE_PARTS = 'off';
  f = await fixture();
  bucket = await withBucket(f);
});
afterEach(async () => {
  delete process.env.VGWRDMA_INPLACE_PARTS;
  forceCopyRangeErrno(undefined);
  await f.cleanup();
});

async function multipart(key: string, sizes: number[]) {
  const up = await startUpload(f.backend, bucket, key);
  const datas = sizes.map((n) => randomBytes(n));
  // All parts at once, as a managed client sends them.
  const parts = await Promise.all(
    datas.map(async (data, i) => {
      const p = await sendPart(f.backend, up, i + 1, data, { contentLength: data.length });
      return { partNumber: i + 1, etag: p.etag };
    }),
  );
  const md5s = datas.map((d) => createHash('md5').update(d).digest());
  const etag = `"${createHash('md5').update(Buffer.concat(md5s)).digest('hex')}-${sizes.length}"`;
  return { uploadId: up.uploadId, parts, data: Buffer.concat(datas), etag };
}

/** The backend's environment (private there; assemble takes it). */
function envOf(): PosixEnv {
  return (f.backend as unknown as { env: PosixEnv }).env;
}

async function completeAndRead(key: string, sizes: number[]) {
  const u = await multipart(key, sizes);
  const out = await f.backend.completeMultipartUpload(ctx(), {
    bucket,
    key,
    uploadId: u.uploadId,
    parts: u.parts,
  });
  expect(out.etag).toBe(u.etag);
  const got = await f.backend.getObject(ctx(), { bucket, key });
  expect(got.etag).toBe(u.etag);
  expect((await readAll(got.body)).equals(u.data)).toBe(true);
}

describe('multipart assembly', () => {
  it('concatenates in the kernel: byte-exact object, multipart ETag', async () => {
    await completeAndRead('kernel', [5 * MiB, 5 * MiB + 3, 7 * MiB, 1234]);
  });

  it.each(['EXDEV', 'EOPNOTSUPP', 'ENOSYS'])('falls back to read/write on %s, same object', async (name) => {
    forceCopyRangeErrno((constants.errno as Record<string, number>)[name]);
    await completeAndRead(`fallback-${name}`, [5 * MiB, 6 * MiB + 1, 99]);
  });

  it('reports which path put the bytes together', async () => {
    const u = await multipart('method', [5 * MiB, 100]);
    const rel = uploadRel(bucket, 'method', u.uploadId);
    const parts = [
      { rel: `${rel}/1`, size: 5 * MiB },
      { rel: `${rel}/2`, size: 100 },
    ];
    const k = await assemble(envOf(), ctx(), { bucket, parts, algorithms: [] });
    expect(k.method).toBe('kernel');
    expect(k.size).toBe(5 * MiB + 100);
    await k.tmp.discard();
    forceCopyRangeErrno(constants.errno.EXDEV);
    const j = await assemble(envOf(), ctx(), { bucket, parts, algorithms: [] });
    expect(j.method).toBe('js');
    await j.tmp.discard();
    forceCopyRangeErrno(undefined);
    const h = await assemble(envOf(), ctx(), { bucket, parts, algorithms: ['CRC32'] });
    expect(h.method).toBe('js');
    expect(h.checksums.CRC32).toMatch(/^[A-Za-z0-9+/]+=*$/);
    await h.tmp.discard();
  });
});
