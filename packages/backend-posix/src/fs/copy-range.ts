// Copies a byte range of one file into another at an offset without the bytes passing through
// JavaScript: copy_file_range(2), libc's (declared in @vgwrdma/native). The kernel keeps the
// copy in the page cache (ext4, tmpfs), or shares the blocks (a reflink: XFS and btrfs do that
// inside copy_file_range, so no FICLONERANGE call is needed), or offloads it (NFS 4.2 server-side
// copy). Used by CompleteMultipartUpload to concatenate part files.
//
// The big calls run on the libuv pool, where errno cannot be read back; so the
// first call of a copy runs here, synchronously and small, to learn whether the file system copies
// at all, and a pool call that fails is asked once more here, small, for its errno. A file system
// that cannot (EXDEV, EOPNOTSUPP, ENOSYS, EINVAL, …) answers `false` with nothing half-claimed:
// the caller copies the rest (from `done` on) through JS. Any other errno is an fs error.
// VGWRDMA_COPY_RANGE=off (environment, read at start) turns the kernel copy off.
import { constants } from 'node:os';
import { copyFileRangeCall, lastErrno } from '@vgwrdma/native';
import { errnoError } from './errno-error.js';

// The offsets go in as one-element BigInt64Arrays (the kernel advances them).
const copyFileRange = copyFileRangeCall();

function at(pos: number): BigInt64Array {
  return BigInt64Array.of(BigInt(pos));
}

/** errnos that mean "this pair of files cannot be copied in the kernel": fall back to read/write. */
const UNSUPPORTED = new Set(
  ['EXDEV', 'EOPNOTSUPP', 'ENOTSUP', 'ENOSYS', 'EINVAL', 'EBADF', 'EPERM', 'ETXTBSY'].map(
    (n) => (constants.errno as Record<string, number>)[n],
  ),
);
/** The synchronous probe's size: small enough never to stall the event loop. */
const PROBE_BYTES = 64 << 10;
/** Bytes one pool call copies at most (the kernel copies up to ~2 GiB a call anyway). */
const CALL_BYTES = 256 << 20;

/**
 * Every call fails with this errno (as on a file system without the call): set by tests, and by
 * VGWRDMA_COPY_RANGE=off in the environment (ENOSYS: the read/write path, e.g. to compare).
 */
let forcedErrno: number | undefined =
  process.env.VGWRDMA_COPY_RANGE === 'off' ? constants.errno.ENOSYS : undefined;

/** Tests only: make copy_file_range fail with `errno` (undefined: behave normally). */
export function forceCopyRangeErrno(errno: number | undefined): void {
  forcedErrno = errno;
}

interface CallResult {
  /** Bytes copied (≥ 0), or -1 with `errno`. */
  readonly n: number;
  readonly errno: number;
}

function callSync(src: number, srcPos: number, dst: number, dstPos: number, len: number): CallResult {
  if (forcedErrno !== undefined) return { n: -1, errno: forcedErrno };
  const n = copyFileRange.sync(src, at(srcPos), dst, at(dstPos), len, 0);
  return { n, errno: n < 0 ? lastErrno() : 0 };
}

function callAsync(src: number, srcPos: number, dst: number, dstPos: number, len: number): Promise<number> {
  if (forcedErrno !== undefined) return Promise.resolve(-1);
  return copyFileRange.pooled(src, at(srcPos), dst, at(dstPos), len, 0);
}

export interface CopyRangeOutcome {
  /** True when the whole range was copied in the kernel. */
  readonly copied: boolean;
  /** Bytes copied (from the start of the range) before the kernel declined; all of them when copied. */
  readonly done: number;
}

/**
 * Copies `length` bytes of `src` from `srcPos` into `dst` at `dstPos`. `{ copied: false, done }`
 * when the file system cannot (the caller copies the rest); rejects with an fs-style error for
 * any other failure (ENOSPC, EIO) or when the source is shorter than asked (it changed).
 */
export async function copyRange(
  src: number,
  srcPos: number,
  dst: number,
  dstPos: number,
  length: number,
): Promise<CopyRangeOutcome> {
  let done = 0;
  let first = true;
  while (done < length) {
    const want = Math.min(length - done, first ? PROBE_BYTES : CALL_BYTES);
    let n: number;
    if (first) {
      const r = callSync(src, srcPos + done, dst, dstPos + done, want);
      if (r.n < 0) {
        if (UNSUPPORTED.has(r.errno)) return { copied: false, done };
        throw errnoError(r.errno, 'copy_file_range', dst);
      }
      n = r.n;
      first = false;
    } else {
      n = await callAsync(src, srcPos + done, dst, dstPos + done, want);
      // The pool call cannot report errno: ask again here, small, to learn it (or go on).
      if (n < 0) first = true;
      if (n < 0) continue;
    }
    if (n === 0) throw errnoError(constants.errno.EIO, 'copy_file_range (source ended early)', src);
    done += n;
  }
  return { copied: true, done };
}
