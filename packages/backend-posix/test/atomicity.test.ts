// Writes are atomic: a failed, aborted or rejected PUT leaves no object and nothing in .sgwtmp.
import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { body, bucketEach, codeOf, ctx, type Fixture, put, readAll, tmpEntries } from './helpers.js';
import { listedParts, startUpload } from './parts.js';

let f: Fixture;
let bucket: string;
bucketEach((fx, b) => {
  f = fx;
  bucket = b;
});

function failingAfter(chunks: Buffer[]): Readable {
  let i = 0;
  return new Readable({
    read() {
      if (i < chunks.length) this.push(chunks[i++]);
      else this.destroy(new Error('client went away'));
    },
  });
}

describe('atomic PUT', () => {
  it('a body that errors midway publishes nothing and leaves .sgwtmp empty', async () => {
    const big = Buffer.alloc(3 * 1024 * 1024, 7); // over one write batch, so data reached the disk
    const err = await f.backend
      .putObject(ctx(), { bucket, key: 'x', body: failingAfter([big, big]) })
      .catch((e) => e);
    expect(err.code).toBe('IncompleteBody');
    expect(await codeOf(f.backend.headObject(ctx(), { bucket, key: 'x' }))).toBe('NoSuchKey');
    expect(await tmpEntries(f, bucket)).toEqual([]);
  });

  it('a failed overwrite keeps the old object', async () => {
    await put(f, bucket, 'keep', 'old data');
    await f.backend
      .putObject(ctx(), { bucket, key: 'keep', body: failingAfter([Buffer.from('new')]) })
      .catch(() => undefined);
    expect((await readAll((await f.backend.getObject(ctx(), { bucket, key: 'keep' })).body)).toString()).toBe(
      'old data',
    );
    expect(await tmpEntries(f, bucket)).toEqual([]);
  });

  it('an abort signal ends a stalled upload, removing its temp file', async () => {
    const ac = new AbortController();
    const stalled = new PassThrough();
    stalled.write(Buffer.alloc(1000));
    const p = f.backend.putObject(ctx(ac.signal), { bucket, key: 'a', body: stalled });
    // The temp file exists while the body is pending.
    for (let i = 0; i < 100 && (await tmpEntries(f, bucket)).length === 0; i++)
      await new Promise((r) => setImmediate(r));
    expect((await tmpEntries(f, bucket)).length).toBe(1);
    ac.abort();
    const err = await p.catch((e) => e);
    expect(err).toBeInstanceOf(Error);
    expect(err.name).toBe('AbortError');
    expect(await codeOf(f.backend.headObject(ctx(), { bucket, key: 'a' }))).toBe('NoSuchKey');
    expect(await tmpEntries(f, bucket)).toEqual([]);
  });

  it('an already-aborted signal writes nothing', async () => {
    const ac = new AbortController();
    ac.abort();
    await expect(
      f.backend.putObject(ctx(ac.signal), { bucket, key: 'b', body: body('x') }),
    ).rejects.toThrow();
    expect(await tmpEntries(f, bucket)).toEqual([]);
  });

  it('readers see the old or the new object while it is replaced, never a mix', async () => {
    const a = Buffer.alloc(256 * 1024, 'a');
    const b = Buffer.alloc(256 * 1024, 'b');
    await put(f, bucket, 'swap', a);
    const writes = Array.from({ length: 10 }, (_, i) => put(f, bucket, 'swap', i % 2 ? a : b));
    const reads = Array.from({ length: 20 }, async () => {
      const data = await readAll((await f.backend.getObject(ctx(), { bucket, key: 'swap' })).body);
      expect(data.equals(a) || data.equals(b)).toBe(true);
    });
    await Promise.all([...writes, ...reads]);
  });

  it('a part upload that fails leaves no part and no temp file', async () => {
    const at = await startUpload(f.backend, bucket, 'mp');
    await f.backend
      .uploadPart(ctx(), { ...at, partNumber: 1, body: failingAfter([Buffer.from('x')]) })
      .catch(() => undefined);
    expect(await listedParts(f.backend, at)).toEqual([]);
    expect(await tmpEntries(f, bucket)).toEqual([]);
  });

  it('puts racing with deletes of sibling keys (parent dir pruning) all land', async () => {
    const ops: Promise<unknown>[] = [];
    for (let i = 0; i < 30; i++) {
      ops.push(put(f, bucket, `deep/dir/k${i}`, 'v'));
      ops.push(f.backend.deleteObject(ctx(), { bucket, key: `deep/dir/k${i - 1}` }));
    }
    await Promise.all(ops);
    const last = await f.backend.headObject(ctx(), { bucket, key: 'deep/dir/k29' });
    expect(last.size).toBe(1);
  });
});
