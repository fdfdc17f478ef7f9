// PositionalWriter: a small body written inline at finish() and a large one through the pool land
// byte for byte; chunks after an inline-sized start still go to their positions; a write error
// (a read-only descriptor) is thrown by finish(), inline or not.
import { randomBytes } from 'node:crypto';
import { mkdtemp, open, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PositionalWriter } from '../../src/fs/positional-writer.js';

describe('PositionalWriter', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'pos-writer-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  const writeChunks = async (name: string, chunks: Buffer[]) => {
    const fh = await open(join(dir, name), 'wx');
    try {
      const w = new PositionalWriter(fh);
      for (const c of chunks) {
        w.push(c);
        await w.drain();
      }
      await w.finish();
    } finally {
      await fh.close();
    }
    return readFile(join(dir, name));
  };

  it.each([
    ['empty', []],
    ['4 KiB in one chunk', [randomBytes(4096)]],
    ['64 KiB in three chunks (inline)', [randomBytes(1000), randomBytes(60_000), randomBytes(4536)]],
    ['64 KiB + 1 (through the pool)', [randomBytes(65_537)]],
    ['3 MiB in 64 KiB chunks', Array.from({ length: 48 }, () => randomBytes(65_536))],
  ])('%s lands byte for byte', async (name, chunks) => {
    const got = await writeChunks(name.replaceAll(' ', '_'), chunks);
    expect(got.equals(Buffer.concat(chunks))).toBe(true);
  });

  it.each([
    ['inline', 100],
    ['through the pool', 2 << 20],
  ])('throws the write error (%s)', async (_, size) => {
    const path = join(dir, `ro-${size}`);
    await writeFile(path, '');
    const fh = await open(path, 'r');
    try {
      const w = new PositionalWriter(fh);
      w.push(randomBytes(size));
      await expect(w.finish()).rejects.toMatchObject({ code: 'EBADF' });
    } finally {
      await fh.close();
    }
  });
});
