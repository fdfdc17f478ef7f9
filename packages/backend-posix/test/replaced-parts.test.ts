// Two uploads of one part number, the first-started finishing last (xattr and sidecar stores):
// ListParts shows the last, Complete accepts either ETag and assembles that upload's bytes, the
// replaced part is kept beside the current one, and Abort removes both.
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { sha256Hex } from '../src/fs/layout.js';
import { body, codeOf, ctx, type Fixture, fixture, readAll, withBucket } from './helpers.js';
import { complete, listedParts, startUpload } from './parts.js';

const SIZE = 64 * 1024;

describe.each([
  ['xattr', {}],
  ['sidecar', { sidecarName: 'sidecar' }],
])('a raced part (%s store)', (_name, opts) => {
  let f: Fixture;
  afterEach(() => f.cleanup());

  async function race(key: string) {
    f = await fixture(opts);
    const bucket = await withBucket(f);
    const at = await startUpload(f.backend, bucket, key);
    const ref = { ...at, partNumber: 1 };
    // A starts first and is held half-sent while B runs whole; then A finishes, last.
    const held = new PassThrough();
    const a = f.backend.uploadPart(ctx(), { ...ref, body: held, contentLength: SIZE });
    held.write(Buffer.alloc(SIZE / 2, 0x41));
    const b = await f.backend.uploadPart(ctx(), { ...ref, body: body(Buffer.alloc(SIZE, 0x42)) });
    held.end(Buffer.alloc(SIZE / 2, 0x41));
    return { at, bucket, uploadId: at.uploadId, a: (await a).etag, b: b.etag };
  }
  const read = async (bucket: string, key: string) =>
    [...new Set((await readAll((await f.backend.getObject(ctx(), { bucket, key })).body)).toString())].join(
      '',
    );
  const uploadDir = (bucket: string, key: string, uploadId: string) =>
    join(f.root, bucket, '.sgwtmp', 'multipart', sha256Hex(key), uploadId);

  it('lists the last upload and keeps the replaced one beside it', async () => {
    const r = await race('k');
    const parts = await listedParts(f.backend, r.at);
    expect(parts.map((p) => [p.partNumber, p.etag])).toEqual([[1, r.a]]);
    const names = await readdir(uploadDir(r.bucket, 'k', r.uploadId));
    expect(names.sort()).toEqual(['1', `1.${r.b.replaceAll('"', '')}`]);
  });

  it.each([
    ['b', 'B'],
    ['a', 'A'],
  ] as const)('completes with the ETag of upload %s', async (which, letter) => {
    const r = await race('k');
    await complete(f.backend, r.at, [{ partNumber: 1, etag: r[which] }]);
    expect(await read(r.bucket, 'k')).toBe(letter);
  });

  it('counts a repeated part number once, with its last entry', async () => {
    const r = await race('k');
    const out = await complete(f.backend, r.at, [
      { partNumber: 1, etag: r.b },
      { partNumber: 1, etag: r.a },
    ]);
    expect(out.etag).toMatch(/-1"$/);
    expect(await read(r.bucket, 'k')).toBe('A');
  });

  it('still refuses parts out of order and unknown ETags, and Abort removes kept parts', async () => {
    const r = await race('k');
    expect(await codeOf(complete(f.backend, r.at, [{ partNumber: 1, etag: `"${'0'.repeat(32)}"` }]))).toBe(
      'InvalidPart',
    );
    expect(
      await codeOf(
        complete(f.backend, r.at, [
          { partNumber: 1, etag: r.a },
          { partNumber: 2, etag: r.b },
          { partNumber: 1, etag: r.b },
        ]),
      ),
    ).toBe('InvalidPartOrder');
    await f.backend.abortMultipartUpload(ctx(), { bucket: r.bucket, key: 'k', uploadId: r.uploadId });
    expect(await readdir(join(f.root, r.bucket, '.sgwtmp', 'multipart')).catch(() => [])).toEqual([]);
  });
});
