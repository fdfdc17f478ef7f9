// wholeFileBody: a small range read at once — the exact bytes as WHOLE_BYTES, the same bytes when
// the stream is read, READ_AT over that memory, the handle closed, a short file's short bytes.
import { randomBytes } from 'node:crypto';
import { readlinkSync } from 'node:fs';
import { mkdtemp, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isWholeBody, READ_AT, WHOLE_BYTES } from '@vgwrdma/backend-contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileBody, WHOLE_MAX, wholeFileBody } from '../../src/fs/file-body.js';
import { ReadFd } from '../../src/fs/read-fd.js';

const open = (path: string) => ReadFd.open(path);

describe('wholeFileBody', () => {
  let dir: string;
  const data = randomBytes(100_000);
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'file-body-'));
    await writeFile(join(dir, 'obj'), data);
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('holds exactly the range, and streams the same bytes', async () => {
    const body = await wholeFileBody(await open(join(dir, 'obj')), 1000, 50_999);
    expect(isWholeBody(body)).toBe(true);
    expect(body[WHOLE_BYTES].equals(data.subarray(1000, 51_000))).toBe(true);
    const chunks: Buffer[] = [];
    for await (const c of body) chunks.push(c as Buffer);
    expect(Buffer.concat(chunks).equals(data.subarray(1000, 51_000))).toBe(true);
  });

  it('answers READ_AT from memory, with 0 at the end', async () => {
    const body = await wholeFileBody(await open(join(dir, 'obj')), 0, data.length - 1);
    const target = Buffer.alloc(4096);
    expect(await body[READ_AT](target, 96_000)).toBe(4000);
    expect(target.subarray(0, 4000).equals(data.subarray(96_000))).toBe(true);
    expect(await body[READ_AT](target, data.length)).toBe(0);
  });

  it('closes the handle it took', async () => {
    const fh = await open(join(dir, 'obj'));
    await wholeFileBody(fh, 0, 9);
    await new Promise((r) => setTimeout(r, 50));
    await expect(fh.read(Buffer.alloc(1), 0, 1, 0)).rejects.toMatchObject({ code: 'EBADF' });
    // and the descriptor no longer names the file (its number may have been reused since)
    const named = (() => {
      try {
        return readlinkSync(`/proc/self/fd/${fh.fd}`);
      } catch {
        return undefined;
      }
    })();
    expect(named).not.toBe(join(dir, 'obj'));
  });

  it('gives the short bytes of a file shorter than its size said', async () => {
    await writeFile(join(dir, 'short'), data.subarray(0, 5000));
    const fh = await open(join(dir, 'short'));
    await truncate(join(dir, 'short'), 3000);
    const body = await wholeFileBody(fh, 0, 4999);
    expect(body[WHOLE_BYTES].equals(data.subarray(0, 3000))).toBe(true);
  });

  it('leaves larger ranges to the stream, which has no WHOLE_BYTES', async () => {
    expect(WHOLE_MAX).toBe(1 << 20);
    const body = fileBody(await open(join(dir, 'obj')), 0, data.length - 1);
    expect(isWholeBody(body)).toBe(false);
    body.destroy();
  });
});
