// renameat2(2), libc's (Node has none): a rename with flags (RENAME_EXCHANGE swaps two names
// atomically), on the libuv pool.
import { libc } from '../libc.js';
import { declareOnce } from './once.js';

/** RENAME_EXCHANGE: the two names trade places. */
export const RENAME_EXCHANGE = 2;

/** On the pool: 0, or -1 (errno cannot be read back from the pool); rejects when koffi could not call. */
export type Renameat2Fn = (
  olddirfd: number,
  oldpath: string,
  newdirfd: number,
  newpath: string,
  flags: number,
) => Promise<number>;

/** The call (throws where libc cannot be opened or lacks it). */
export const renameat2Call: () => Renameat2Fn = declareOnce(() => {
  const fn = libc().func(
    'int renameat2(int olddirfd, const char *oldpath, int newdirfd, const char *newpath, unsigned int flags)',
  );
  return (olddirfd, oldpath, newdirfd, newpath, flags) =>
    new Promise((resolve, reject) => {
      fn.async(olddirfd, oldpath, newdirfd, newpath, flags, (err: unknown, rc: number) => {
        if (err) reject(err);
        else resolve(rc);
      });
    });
});
