// statx(2), libc's (glibc ≥ 2.28): a stat into a caller's buffer (struct statx, the kernel's
// layout, 256 bytes), with no Stats object made. Returns 0, or -1 with errno (lastErrno()).
import { libc } from '../libc.js';
import { declareOptional } from './once.js';

export type StatxFn = (dirfd: number, path: string, flags: number, mask: number, out: Uint8Array) => number;

/** libc's statx, or undefined where this libc has none. */
export const statxCall: () => StatxFn | undefined = declareOptional(
  () =>
    libc().func(
      'int statx(int dirfd, const char *path, int flags, unsigned int mask, _Out_ uint8_t *buf)',
    ) as StatxFn,
);
