// ReadFd (src/fs/read-fd.ts): an object file read through a bare descriptor, opened and read on
// the calling thread when the kernel can answer from its caches (openat2 RESOLVE_CACHED, preadv2
// RWF_NOWAIT), on the pool otherwise; the descriptor closed exactly once, only after every read
// and stream over it is done.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { INLINE_READ_MAX, inlineReads, ReadFd, readPaths } from '../../src/fs/read-fd.js';

const dir = mkdtempSync(join(tmpdir(), 'read-fd-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, bytes: Buffer): string {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return path;
}

/** What descriptor `fd` of this process names now, or undefined when it is closed. */
function fdTarget(fd: number): string | undefined {
  try {
    return readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    return undefined;
  }
}

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

describe('ReadFd', () => {
  it('opens and reads a cached file on the calling thread, byte for byte', async () => {
    const data = randomBytes(300_000);
    const path = file('small', data);
    const before = { ...readPaths };
    const f = await ReadFd.open(path);
    const buf = Buffer.alloc(data.length);
    const { bytesRead } = await f.read(buf, 0, buf.length, 0);
    expect(bytesRead).toBe(data.length);
    expect(buf.equals(data)).toBe(true);
    const part = Buffer.alloc(1000);
    await f.read(part, 10, 990, 5000);
    expect(part.subarray(10).equals(data.subarray(5000, 5990))).toBe(true);
    await f.close();
    if (inlineReads) {
      expect(readPaths.inlineOpens).toBe(before.inlineOpens + 1);
      expect(readPaths.inlineReads).toBe(before.inlineReads + 2);
      expect(readPaths.poolReads).toBe(before.poolReads);
    }
  });

  it('reads requests larger than INLINE_READ_MAX on the pool', async () => {
    const data = randomBytes(INLINE_READ_MAX + 4096);
    const f = await ReadFd.open(file('large', data));
    const before = readPaths.poolReads;
    const buf = Buffer.alloc(data.length);
    const { bytesRead } = await f.read(buf, 0, buf.length, 0);
    expect(bytesRead).toBe(data.length);
    expect(buf.equals(data)).toBe(true);
    expect(readPaths.poolReads).toBe(before + 1);
    await f.close();
  });

  it("answers a missing file or a directory with Node's own errors", async () => {
    await expect(ReadFd.open(join(dir, 'no-such'))).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(ReadFd.open(join(dir, 'small', 'below'))).rejects.toMatchObject({ code: 'ENOTDIR' });
    // once the kernel knows the name is missing (a cached negative lookup), the inline open
    // answers alone: a missing key is not opened a second time on the pool
    const opens = readPaths.poolOpens;
    await expect(ReadFd.open(join(dir, 'no-such'))).rejects.toMatchObject({
      code: 'ENOENT',
      syscall: 'open',
    });
    if (inlineReads) expect(readPaths.poolOpens).toBe(opens);
    const f = await ReadFd.open(dir); // a directory opens read-only; reading it fails
    await expect(f.read(Buffer.alloc(10), 0, 10, 0)).rejects.toMatchObject({ code: 'EISDIR' });
    await f.close();
  });

  it('opens a FIFO left in the tree at once instead of waiting for a writer', async () => {
    const fifo = join(dir, 'fifo');
    execFileSync('mkfifo', [fifo]);
    const f = await ReadFd.open(fifo);
    const { bytesRead } = await f.read(Buffer.alloc(16), 0, 16, 0).catch(() => ({ bytesRead: -1 }));
    expect(bytesRead).toBeLessThanOrEqual(0); // no writer: end of file (or ESPIPE for pread)
    await f.close();
  });

  it('closes the descriptor once, when a stream over it ends', async () => {
    const data = randomBytes(2_000_000);
    const path = file('streamed', data);
    const f = await ReadFd.open(path);
    expect(fdTarget(f.fd)).toBe(path);
    const got = await readAll(f.createReadStream({ start: 100, end: 1_500_099, highWaterMark: 256 * 1024 }));
    expect(got.equals(data.subarray(100, 1_500_100))).toBe(true);
    await new Promise<void>((r) => setImmediate(r));
    expect(fdTarget(f.fd)).toBeUndefined();
    await f.close(); // idempotent
    await f.close();
  });

  it('close() while a stream reads waits for it, destroys it and closes once', async () => {
    const path = file('busy', randomBytes(4_000_000));
    const f = await ReadFd.open(path);
    const stream = f.createReadStream({ highWaterMark: 64 * 1024 });
    await new Promise<void>((r) => stream.once('readable', () => r()));
    const closed = new Promise<void>((r) => stream.once('close', () => r()));
    await f.close();
    await closed;
    expect(stream.destroyed).toBe(true);
    expect(fdTarget(f.fd) === path).toBe(false);
    await expect(f.read(Buffer.alloc(4), 0, 4, 0)).rejects.toMatchObject({ code: 'EBADF' });
  });

  it('close() during a read on the pool closes only after that read answered', async () => {
    const data = randomBytes(INLINE_READ_MAX * 3);
    const path = file('pending', data);
    const f = await ReadFd.open(path);
    const buf = Buffer.alloc(data.length);
    const reading = f.read(buf, 0, buf.length, 0);
    const closing = f.close();
    const { bytesRead } = await reading;
    await closing;
    expect(bytesRead).toBe(data.length);
    expect(buf.equals(data)).toBe(true);
    expect(fdTarget(f.fd) === path).toBe(false);
  });
});
