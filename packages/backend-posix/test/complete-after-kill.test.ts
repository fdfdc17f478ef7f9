// A CompleteMultipartUpload killed after it published the object, while it was removing the
// claim's parts: a restart gives the claim back with some parts gone, and the client's retry of
// the same Complete must answer the published object (as AWS does for a completed upload), not
// InvalidPart. The half-removed claim is rebuilt here from a copy taken before the first Complete.
import { execFileSync } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { sha256Hex } from '../src/fs/layout.js';
import { body, ctx, type Fixture, fixture, readAll, withBucket } from './helpers.js';

const PART = 5 * 1024 * 1024;
let f: Fixture;
afterEach(() => f.cleanup());

it('a retried Complete after a kill mid-cleanup answers the published object', async () => {
  f = await fixture();
  const bucket = await withBucket(f);
  const key = 'killed/complete';
  const { uploadId } = await f.backend.createMultipartUpload(ctx(), { bucket, key });
  const data = [Buffer.alloc(PART, 0x61), Buffer.alloc(PART, 0x62), Buffer.alloc(7, 0x63)];
  const parts = [];
  for (const [i, d] of data.entries()) {
    const r = await f.backend.uploadPart(ctx(), { bucket, key, uploadId, partNumber: i + 1, body: body(d) });
    parts.push({ partNumber: i + 1, etag: r.etag });
  }
  const dir = join(f.root, bucket, '.sgwtmp', 'multipart', sha256Hex(key), uploadId);
  const copy = `${dir}.copy`;
  execFileSync('cp', ['-a', '--preserve=all', dir, copy]); // parts with their xattrs
  const first = await f.backend.completeMultipartUpload(ctx(), { bucket, key, uploadId, parts });

  // What the restart hands back: the upload directory with only part 1 left.
  execFileSync('mv', [copy, dir]);
  await rm(join(dir, '2'));
  await rm(join(dir, '3'));

  const retried = await f.backend.completeMultipartUpload(ctx(), { bucket, key, uploadId, parts });
  expect(retried.etag).toBe(first.etag);
  const got = await readAll((await f.backend.getObject(ctx(), { bucket, key })).body);
  expect(got.equals(Buffer.concat(data))).toBe(true);
  // The leftover claim is gone, so the upload is no longer listed.
  const uploads = await f.backend.listMultipartUploads(ctx(), { bucket, maxUploads: 10 });
  expect(uploads.uploads.map((u) => u.uploadId)).not.toContain(uploadId);
});
