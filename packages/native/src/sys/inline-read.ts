// The two calls that open and read a file on the calling thread without blocking when the kernel
// can answer from its caches: openat2(2) (no libc wrapper: through syscall(2)) with a struct
// open_how, and preadv2(2) with per-call flags (RWF_NOWAIT). Each returns what the kernel
// returned: ≥ 0, or -1 with errno (lastErrno()).
import { koffi } from '../koffi.js';
import { libc } from '../libc.js';
import { declareOptional } from './once.js';

const SYS_OPENAT2 = 437; // the same number on x86_64 and arm64

export interface InlineReadCalls {
  /** openat2(dirfd, path, how, sizeof how): a descriptor, or -1. `how` is a struct open_how. */
  openat2(dirfd: number, path: string, how: Uint8Array): number;
  /** preadv2 of one iovec over `target`, at `position`, with `flags` (RWF_*): bytes read, or -1. */
  preadv2(fd: number, target: Uint8Array, position: number, flags: number): number;
}

/** The calls, or undefined off Linux or where this libc lacks preadv2. */
export const inlineReadCalls: () => InlineReadCalls | undefined = declareOptional(() => {
  if (process.platform !== 'linux') return undefined;
  const c = libc();
  const syscall = c.func('long syscall(long number, ...)');
  // registered by name: the prototype below refers to it
  koffi.struct('vgw_read_iovec', { base: 'void *', len: 'size_t' });
  const preadv2 = c.func(
    'intptr_t preadv2(int fd, const vgw_read_iovec *iov, int iovcnt, int64_t offset, int flags)',
  );
  return {
    openat2: (dirfd, path, how) =>
      Number(syscall(SYS_OPENAT2, 'long', dirfd, 'const char *', path, 'void *', how, 'size_t', how.length)),
    preadv2: (fd, target, position, flags) =>
      Number(preadv2(fd, { base: target, len: target.byteLength }, 1, position, flags)),
  };
});
