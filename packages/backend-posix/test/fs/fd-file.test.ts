// FdFile: writes land at their positions, close() closes the descriptor exactly once (inline for a
// small file, on the pool for a large one: afterwards the fd is gone either way), and a second
// close() neither throws nor closes a descriptor that was reused meanwhile.
import { randomBytes } from 'node:crypto';
import { fstatSync, openSync, closeSync as rawClose } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FdFile, INLINE_CLOSE_MAX } from '../../src/fs/fd-file.js';

const isOpen = (fd: number) => {
  try {
    fstatSync(fd);
    return true;
  } catch {
    return false;
  }
};

describe('FdFile', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'fd-file-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it.each([
    ['small (inline close)', 4096],
    ['large (pool close)', INLINE_CLOSE_MAX + 1],
  ])('%s: bytes land, the fd is closed once', async (name, size) => {
    const path = join(dir, name.split(' ')[0] ?? 'f');
    const data = randomBytes(size);
    const f = await FdFile.open(path, 'wx', 0o600);
    await f.writev([data.subarray(0, 100)], 0);
    await f.write(data, 100, size - 100, 100);
    await f.close();
    expect(isOpen(f.fd)).toBe(false);
    // The number may be handed out again; a second close must not touch the new owner's fd.
    const other = openSync(path, 'r');
    try {
      await f.close();
      expect(isOpen(other)).toBe(true);
    } finally {
      rawClose(other);
    }
    expect((await readFile(path)).equals(data)).toBe(true);
  });

  it('refuses to open an existing path with wx', async () => {
    const path = join(dir, 'exists');
    await (await FdFile.open(path, 'wx', 0o600)).close();
    await expect(FdFile.open(path, 'wx', 0o600)).rejects.toMatchObject({ code: 'EEXIST' });
  });
});
