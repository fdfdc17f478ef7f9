// The large-object write path: an overwrite exchanges the new file with the old one (no writeback
// inside a replacing rename) and frees the replaced object after the reply, so readers see the
// old or the new bytes, never a mix, and nothing stays in .sgwtmp; a key that is a directory
// still refuses a large object; a body lent from memory
// (BORROW_CHUNKS) is written and hashed without copies, each chunk released once written.
import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { BORROW_CHUNKS, type LentChunk } from '@vgwrdma/backend-contract';
import { describe, expect, it, vi } from 'vitest';
import { bucketEach, codeOf, ctx, type Fixture, put, readAll, tmpEntries } from './helpers.js';

let f: Fixture;
let bucket: string;
bucketEach((fx, b) => {
  f = fx;
  bucket = b;
});

const md5 = (b: Buffer) => `"${createHash('md5').update(b).digest('hex')}"`;

describe('large writes', () => {
  it('an overwrite serves the new bytes and leaves nothing in .sgwtmp once the held name is dropped', async () => {
    const first = randomBytes(3 * 1024 * 1024);
    const second = randomBytes(2 * 1024 * 1024 + 5);
    await put(f, bucket, 'big', first);
    const reader = await f.backend.getObject(ctx(), { bucket, key: 'big' }); // opened before the overwrite
    expect(await put(f, bucket, 'big', second)).toBe(md5(second));
    expect((await readAll(reader.body)).equals(first)).toBe(true);
    const now = await f.backend.getObject(ctx(), { bucket, key: 'big' });
    expect((await readAll(now.body)).equals(second)).toBe(true);
    await vi.waitFor(async () => expect(await tmpEntries(f, bucket)).toEqual([]));
  });

  it('a large object onto a key that is a directory fails and leaves the directory and its objects', async () => {
    await put(f, bucket, 'dir/inner', Buffer.from('x'));
    expect(await codeOf(put(f, bucket, 'dir', randomBytes(2 * 1024 * 1024)))).toBe(
      'ExistingObjectIsDirectory',
    );
    const inner = await f.backend.getObject(ctx(), { bucket, key: 'dir/inner' });
    expect((await readAll(inner.body)).toString()).toBe('x');
    await vi.waitFor(async () => expect(await tmpEntries(f, bucket)).toEqual([]));
  });

  it('a large body of declared length (MD5 off the main thread where it can be) gets the right ETag', async () => {
    const data = randomBytes(7 * 1024 * 1024 + 11);
    const chunks = Array.from({ length: Math.ceil(data.length / 65_536) }, (_, i) =>
      data.subarray(i * 65_536, (i + 1) * 65_536),
    );
    const out = await f.backend.putObject(ctx(), {
      bucket,
      key: 'declared',
      body: Readable.from(chunks),
      contentLength: data.length,
    });
    expect(out.etag).toBe(md5(data));
    const got = await f.backend.getObject(ctx(), { bucket, key: 'declared' });
    expect((await readAll(got.body)).equals(data)).toBe(true);
  });

  it('a large body of declared length that fails midway publishes nothing, hashes stopped', async () => {
    const piece = randomBytes(1024 * 1024);
    let sent = 0;
    const failing = new Readable({
      read() {
        if (sent++ < 5) this.push(piece);
        else this.destroy(new Error('client went away'));
      },
    });
    const err = await f.backend
      .putObject(ctx(), { bucket, key: 'cut', body: failing, contentLength: 8 * 1024 * 1024 })
      .catch((e) => e);
    expect(err.code).toBe('IncompleteBody');
    expect(await codeOf(f.backend.headObject(ctx(), { bucket, key: 'cut' }))).toBe('NoSuchKey');
    await vi.waitFor(async () => expect(await tmpEntries(f, bucket)).toEqual([]));
  });

  it('a lent body is hashed and written from the lent memory, each chunk released after its write', async () => {
    const data = randomBytes(5 * 1024 * 1024 + 3);
    const released: number[] = [];
    const chunk = 1024 * 1024;
    const lent = async function* (): AsyncGenerator<LentChunk> {
      for (let i = 0; i * chunk < data.length; i++) {
        yield { bytes: data.subarray(i * chunk, (i + 1) * chunk), release: () => released.push(i) };
      }
    };
    const body = Object.assign(Readable.from([]), { [BORROW_CHUNKS]: lent });
    const out = await f.backend.putObject(ctx(), { bucket, key: 'lent', body, contentLength: data.length });
    expect(out.etag).toBe(md5(data));
    expect(released.sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5]);
    const got = await f.backend.getObject(ctx(), { bucket, key: 'lent' });
    expect((await readAll(got.body)).equals(data)).toBe(true);
  });
});
