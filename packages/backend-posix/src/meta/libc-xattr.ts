// libc's xattr calls (declared in @vgwrdma/native): Node has no xattr API. All calls are
// synchronous. A read is a single short syscall (~1-2 µs); setting an attribute through the fd of
// an open file is no path lookup and, on ext4, an in-inode update that waits for no journal
// commit: ~2.5 µs each measured on the 2-core VM (4 attributes 9-10 µs), while the same four on
// the libuv pool cost 75-125 µs of wall time and a pool slot each, and a 4 KiB PUT
// sets three or four. Errors come back as Node-style errors (`code` = errno name) so callers treat
// them like fs errors.
import { constants } from 'node:os';
import { lastErrno, xattrCalls } from '@vgwrdma/native';
import { type ErrnoError, errnoError } from '../fs/errno-error.js';

const { getxattr, fgetxattr, setxattr, fsetxattr, listxattr, removexattr } = xattrCalls();

const ENODATA = constants.errno.ENODATA;
const ERANGE = constants.errno.ERANGE;

function fail(syscall: string, target: string | number): ErrnoError {
  return errnoError(lastErrno(), syscall, target);
}

/**
 * One call into a scratch buffer answers every attribute that fits it (an ETag, checksums, most
 * documents): a listing reads two per key. Only this thread's synchronous calls use it.
 */
const SCRATCH = Buffer.alloc(1024);

/**
 * Reads an attribute: into SCRATCH first; a larger one (ERANGE) in two steps (size, then value),
 * asking again if it grew in between. Returns undefined for ENODATA (attribute absent).
 */
function readAttr(
  call: (value: Buffer | null, size: number) => number,
  syscall: string,
  target: string | number,
): Buffer | undefined {
  const got = call(SCRATCH, SCRATCH.length);
  if (got >= 0) {
    const out = Buffer.alloc(got); // a copy of its own (SCRATCH is reused), not from the shared pool
    SCRATCH.copy(out, 0, 0, got);
    return out;
  }
  const first = lastErrno();
  if (first === ENODATA) return undefined;
  if (first !== ERANGE) throw fail(syscall, target);
  for (;;) {
    const size = call(null, 0);
    if (size < 0) {
      if (lastErrno() === ENODATA) return undefined;
      throw fail(syscall, target);
    }
    if (size === 0) return Buffer.alloc(0);
    // Buffer.alloc, not allocUnsafe: pooled small buffers share memory with other values.
    const buf = Buffer.alloc(size);
    const got = call(buf, size);
    if (got >= 0) return buf.subarray(0, got);
    const errno = lastErrno();
    if (errno === ENODATA) return undefined;
    if (errno !== ERANGE) throw fail(syscall, target);
  }
}

export function xattrGet(path: string, name: string): Buffer | undefined {
  return readAttr((v, n) => getxattr(path, name, v, n), 'getxattr', path);
}

export function xattrGetFd(fd: number, name: string): Buffer | undefined {
  return readAttr((v, n) => fgetxattr(fd, name, v, n), 'fgetxattr', fd);
}

export function xattrSet(path: string, name: string, value: Buffer): void {
  if (setxattr(path, name, value, value.length, 0) !== 0) throw fail('setxattr', path);
}

export function xattrSetFd(fd: number, name: string, value: Buffer): void {
  if (fsetxattr(fd, name, value, value.length, 0) !== 0) throw fail('fsetxattr', fd);
}

/** Removes an attribute; ENODATA (absent) is not an error. */
export function xattrRemove(path: string, name: string): void {
  if (removexattr(path, name) !== 0 && lastErrno() !== ENODATA) throw fail('removexattr', path);
}

export function xattrList(path: string): string[] {
  const raw = readAttr((v, n) => listxattr(path, v, n), 'listxattr', path) ?? Buffer.alloc(0);
  return raw
    .toString('utf8')
    .split('\0')
    .filter((s) => s !== '');
}
