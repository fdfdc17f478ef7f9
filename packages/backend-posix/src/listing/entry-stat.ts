// The one stat a listing makes per key, by libc's statx (@vgwrdma/native) into a reused buffer:
// ~0.8 µs on the 2-core VM where Node's lstatSync took ~1.7 µs and left a Stats object (and its
// Dates) per key for the garbage collector — a 1000-key page made 1000 of them (issue 22). The
// struct statx layout is the kernel's, the same on x86_64 and arm64. Without statx in libc (glibc
// before 2.28) it falls back to lstatSync. Never follows a link (AT_SYMLINK_NOFOLLOW): a link is
// no object, so the walk never reads outside the root through one.
import { lstatSync, type Stats } from 'node:fs';
import { constants } from 'node:os';
import { AT_FDCWD, lastErrno, statxCall } from '@vgwrdma/native';
import { errnoError } from '../fs/errno-error.js';

/** What a listing needs of an entry. Times are split into seconds and nanoseconds to stay exact. */
export interface EntryStat {
  isFile: boolean;
  isDir: boolean;
  ino: number;
  size: number;
  mtimeSec: number;
  mtimeNsec: number;
  ctimeSec: number;
  ctimeNsec: number;
}

const AT_SYMLINK_NOFOLLOW = 0x100;
// STATX_TYPE | STATX_MODE | STATX_MTIME | STATX_CTIME | STATX_INO | STATX_SIZE
const MASK = 0x1 | 0x2 | 0x40 | 0x80 | 0x100 | 0x200;
const S_IFMT = 0o170000;
const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;
// offsets in struct statx (include/uapi/linux/stat.h)
const OFF = { mode: 0x1c, ino: 0x20, size: 0x28, ctime: 0x60, mtime: 0x70 } as const;
const { ENOENT, ENOTDIR } = constants.errno;

const statx = statxCall();
/** Only this thread's synchronous calls use it. */
const OUT = Buffer.alloc(256);

const u64 = (at: number): number => OUT.readUInt32LE(at) + OUT.readUInt32LE(at + 4) * 2 ** 32;
/** A signed 64-bit tv_sec (before 1970 is negative). */
const s64 = (at: number): number => OUT.readUInt32LE(at) + OUT.readInt32LE(at + 4) * 2 ** 32;

function fromStats(st: Stats): EntryStat {
  const sec = (ms: number) => Math.floor(ms / 1000);
  return {
    isFile: st.isFile(),
    isDir: st.isDirectory(),
    ino: st.ino,
    size: st.size,
    mtimeSec: sec(st.mtimeMs),
    mtimeNsec: Math.round((st.mtimeMs - sec(st.mtimeMs) * 1000) * 1e6),
    ctimeSec: sec(st.ctimeMs),
    ctimeNsec: Math.round((st.ctimeMs - sec(st.ctimeMs) * 1000) * 1e6),
  };
}

/** The entry at absolute `path`, or undefined when it is gone (deleted while listing). */
export function entryStat(path: string): EntryStat | undefined {
  if (statx === undefined) {
    try {
      const st = lstatSync(path, { throwIfNoEntry: false });
      return st && fromStats(st);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOTDIR') return undefined;
      throw err;
    }
  }
  if (statx(AT_FDCWD, path, AT_SYMLINK_NOFOLLOW, MASK, OUT) !== 0) {
    const errno = lastErrno();
    if (errno === ENOENT || errno === ENOTDIR) return undefined;
    throw errnoError(errno, 'statx', path);
  }
  const type = OUT.readUInt16LE(OFF.mode) & S_IFMT;
  return {
    isFile: type === S_IFREG,
    isDir: type === S_IFDIR,
    ino: u64(OFF.ino),
    size: u64(OFF.size),
    mtimeSec: s64(OFF.mtime),
    mtimeNsec: OUT.readUInt32LE(OFF.mtime + 8),
    ctimeSec: s64(OFF.ctime),
    ctimeNsec: OUT.readUInt32LE(OFF.ctime + 8),
  };
}

/**
 * Whole milliseconds since the epoch, rounded as Node rounds Stats.mtime (from mtimeMs), so a
 * listing shows the same date as HeadObject and GetObject, which read Node's Stats.
 */
export function wholeMs(sec: number, nsec: number): number {
  return Math.round(sec * 1e3 + nsec / 1e6);
}
