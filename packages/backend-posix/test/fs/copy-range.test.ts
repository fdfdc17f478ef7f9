// copy_file_range through koffi: a range lands byte-exact at its offset (synchronous probe, then
// pool calls), and a file system that cannot copy answers { copied: false } with the bytes done
// so far, for the caller's read/write fallback — never a half-reported error.
import { randomBytes } from 'node:crypto';
import { closeSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { constants, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { copyRange, forceCopyRangeErrno } from '../../src/fs/copy-range.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'copy-range-'));
});
afterEach(async () => {
  forceCopyRangeErrno(undefined);
  await rm(dir, { recursive: true, force: true });
});

function files(data: Buffer): { src: number; dst: number; dstPath: string; close(): void } {
  const srcPath = join(dir, 'src');
  const dstPath = join(dir, 'dst');
  writeFileSync(srcPath, data);
  const src = openSync(srcPath, 'r');
  const dst = openSync(dstPath, 'w+');
  return {
    src,
    dst,
    dstPath,
    close: () => {
      closeSync(src);
      closeSync(dst);
    },
  };
}

describe('copyRange', () => {
  it('copies a range larger than the probe to an offset, byte-exact', async () => {
    const data = randomBytes(3 * 1024 * 1024 + 17);
    const f = files(data);
    try {
      const r = await copyRange(f.src, 5, f.dst, 1000, data.length - 5);
      expect(r).toEqual({ copied: true, done: data.length - 5 });
    } finally {
      f.close();
    }
    const out = readFileSync(f.dstPath);
    expect(out.length).toBe(1000 + data.length - 5);
    expect(out.subarray(0, 1000).equals(Buffer.alloc(1000))).toBe(true);
    expect(out.subarray(1000).equals(data.subarray(5))).toBe(true);
  });

  it.each(['EXDEV', 'EOPNOTSUPP', 'ENOSYS'])(
    'answers copied: false on %s (the fallback is the caller’s)',
    async (name) => {
      forceCopyRangeErrno((constants.errno as Record<string, number>)[name]);
      const f = files(randomBytes(100_000));
      try {
        expect(await copyRange(f.src, 0, f.dst, 0, 100_000)).toEqual({ copied: false, done: 0 });
      } finally {
        f.close();
      }
      expect(readFileSync(f.dstPath).length).toBe(0);
    },
  );

  it('rejects with an fs error for a failure that is not "unsupported"', async () => {
    forceCopyRangeErrno(constants.errno.EIO);
    const f = files(randomBytes(1000));
    try {
      await expect(copyRange(f.src, 0, f.dst, 0, 1000)).rejects.toMatchObject({
        code: 'EIO',
        syscall: 'copy_file_range',
      });
    } finally {
      f.close();
    }
  });

  it('rejects when the source is shorter than the range (it changed)', async () => {
    const f = files(randomBytes(1000));
    try {
      await expect(copyRange(f.src, 0, f.dst, 0, 2000)).rejects.toMatchObject({ code: 'EIO' });
    } finally {
      f.close();
    }
  });
});
