// copy_file_range(2), libc's: copies a byte range between two descriptors inside the kernel. The
// offsets are one-element BigInt64Arrays (the kernel advances them; koffi passes the array's
// memory). koffi has no loff_t / ssize_t: int64_t and intptr_t are the same on Linux.
import { libc } from '../libc.js';
import { declareOnce } from './once.js';

/** fd_in, off_in, fd_out, off_out, len, flags: copy_file_range's own arguments. */
export type CopyFileRangeArgs = [
  fdIn: number,
  offIn: BigInt64Array,
  fdOut: number,
  offOut: BigInt64Array,
  len: number,
  flags: number,
];

export interface CopyFileRangeCall {
  /** On this thread: bytes copied, or -1 with errno (lastErrno()). */
  sync(...args: CopyFileRangeArgs): number;
  /**
   * On the libuv pool: bytes copied, or -1 (errno cannot be read back from the pool). Rejects
   * when koffi could not make the call. The offsets stay referenced until it settles.
   */
  pooled(...args: CopyFileRangeArgs): Promise<number>;
}

/** The call (throws where libc cannot be opened or lacks it). */
export const copyFileRangeCall: () => CopyFileRangeCall = declareOnce(() => {
  const fn = libc().func(
    'intptr_t copy_file_range(int fd_in, int64_t *off_in, int fd_out, int64_t *off_out, size_t len, unsigned int flags)',
  );
  return {
    sync: (...args) => Number(fn(...args)),
    pooled: (...args) =>
      new Promise((resolve, reject) => {
        fn.async(...args, (err: unknown, n: number | bigint) => {
          if (err) reject(err);
          else resolve(Number(n));
        });
      }),
  };
});
