// The typed libc calls of src/sys, on real files in a temp directory: each is declared once (a
// second ask answers the same functions: koffi would refuse a struct name registered twice) and
// does what its C call does, errno included.
import { closeSync, mkdtempSync, openSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { constants, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  AT_FDCWD,
  copyFileRangeCall,
  inlineReadCalls,
  lastErrno,
  memCopyCall,
  preallocateCall,
  punchHoleCall,
  RENAME_EXCHANGE,
  renameat2Call,
  statxCall,
  xattrCalls,
} from '../src/index.js';

const dir = mkdtempSync(join(tmpdir(), 'vgw-libc-calls-'));
const file = (name: string, body: string) => {
  const p = join(dir, name);
  writeFileSync(p, body);
  return p;
};

describe.runIf(process.platform === 'linux')('libc calls', () => {
  it('are declared once', () => {
    expect(inlineReadCalls()).toBe(inlineReadCalls());
    expect(statxCall()).toBe(statxCall());
    expect(xattrCalls()).toBe(xattrCalls());
    expect(copyFileRangeCall()).toBe(copyFileRangeCall());
    expect(renameat2Call()).toBe(renameat2Call());
    expect(preallocateCall()).toBe(preallocateCall());
    expect(punchHoleCall()).toBe(punchHoleCall());
    expect(memCopyCall()).toBe(memCopyCall());
  });

  it('memcpy copies a large buffer on the pool, into a view at an offset, and refuses a length mismatch', async () => {
    const copy = memCopyCall();
    expect(copy).toBeDefined();
    const src = new Uint8Array(3 << 20).map((_, i) => (i * 31 + 7) & 0xff);
    const dst = new Uint8Array((3 << 20) + 10);
    await copy?.(dst.subarray(5, 5 + src.length), src);
    expect(Buffer.from(dst.subarray(5, 5 + src.length)).equals(Buffer.from(src))).toBe(true);
    expect(dst.subarray(0, 5).every((b) => b === 0)).toBe(true);
    expect(dst.subarray(5 + src.length).every((b) => b === 0)).toBe(true);
    await expect(copy?.(dst, src)).rejects.toThrow(RangeError);
  });

  it('fallocate preallocates a region past the end (the file grows to it) and punches it out again', async () => {
    const p = file('f', 'head');
    const fd = openSync(p, 'r+');
    try {
      const before = statSync(p).blocks;
      const rc = await preallocateCall()(fd, 1 << 20, 4 << 20);
      if (rc !== 0) return; // this file system has no fallocate: the backend then writes as before
      const reserved = statSync(p);
      expect(reserved.size).toBe(5 << 20);
      expect((reserved.blocks - before) * 512).toBeGreaterThanOrEqual(4 << 20);
      expect(await punchHoleCall()(fd, 1 << 20, 4 << 20)).toBe(0);
      const punched = statSync(p);
      expect(punched.size).toBe(5 << 20);
      expect(punched.blocks).toBe(before);
      const body = readFileSync(p);
      expect(body.subarray(0, 4).toString()).toBe('head');
      expect(body.subarray(4).every((b) => b === 0)).toBe(true);
    } finally {
      closeSync(fd);
    }
  });

  it('statx fills struct statx (size at 0x28) and reports ENOENT through errno', () => {
    const statx = statxCall();
    expect(statx).toBeDefined();
    const out = Buffer.alloc(256);
    expect(statx?.(AT_FDCWD, file('s', 'hello'), 0x100, 0x200, out)).toBe(0);
    expect(out.readUInt32LE(0x28)).toBe(5);
    expect(statx?.(AT_FDCWD, join(dir, 'absent'), 0x100, 0x200, out)).toBe(-1);
    expect(lastErrno()).toBe(constants.errno.ENOENT);
  });

  it('openat2 and preadv2 open and read a file', () => {
    const calls = inlineReadCalls();
    expect(calls).toBeDefined();
    const how = Buffer.alloc(24); // O_RDONLY, no resolve flags
    const fd = calls?.openat2(AT_FDCWD, file('r', 'abcdef'), how) ?? -1;
    expect(fd).toBeGreaterThanOrEqual(0);
    const target = new Uint8Array(3);
    expect(calls?.preadv2(fd, target, 2, 0)).toBe(3);
    expect(Buffer.from(target).toString()).toBe('cde');
  });

  it('copy_file_range copies a range, on this thread and on the pool', async () => {
    const { openSync } = await import('node:fs');
    const src = openSync(file('c-src', '0123456789'), 'r');
    const dstPath = file('c-dst', '..........');
    const dst = openSync(dstPath, 'r+');
    const call = copyFileRangeCall();
    expect(call.sync(src, BigInt64Array.of(0n), dst, BigInt64Array.of(0n), 3, 0)).toBe(3);
    expect(await call.pooled(src, BigInt64Array.of(5n), dst, BigInt64Array.of(5n), 5, 0)).toBe(5);
    expect(readFileSync(dstPath, 'utf8')).toBe('012..56789');
  });

  it('renameat2 exchanges two names', async () => {
    const a = file('x-a', 'A');
    const b = file('x-b', 'B');
    expect(await renameat2Call()(AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE)).toBe(0);
    expect([readFileSync(a, 'utf8'), readFileSync(b, 'utf8')]).toEqual(['B', 'A']);
  });

  it('xattr calls set, read, list and remove a user attribute (where the file system has them)', () => {
    const x = xattrCalls();
    const p = file('attrs', '');
    const value = Buffer.from('v1');
    if (x.setxattr(p, 'user.vgw', value, value.length, 0) !== 0) {
      expect(lastErrno()).toBe(constants.errno.EOPNOTSUPP); // tmpfs without user xattrs
      return;
    }
    expect(x.getxattr(p, 'user.vgw', null, 0)).toBe(2);
    const out = Buffer.alloc(8);
    expect(x.getxattr(p, 'user.vgw', out, out.length)).toBe(2);
    expect(out.subarray(0, 2).toString()).toBe('v1');
    const list = Buffer.alloc(64);
    const n = x.listxattr(p, list, list.length);
    expect(list.subarray(0, n).toString()).toContain('user.vgw');
    expect(x.removexattr(p, 'user.vgw')).toBe(0);
    expect(x.getxattr(p, 'user.vgw', null, 0)).toBe(-1);
    expect(lastErrno()).toBe(constants.errno.ENODATA);
    expect(statSync(p).size).toBe(0);
  });
});
