// fallocate(2) with FALLOC_FL_PUNCH_HOLE, libc's (Node has none): gives back the blocks of a region
// of a file without changing its size. The posix backend punches out the region of a part whose
// in-place write failed, so a failed UploadPart does not keep its bytes' space until the upload ends.
import { libc } from '../libc.js';
import { declareOnce } from './once.js';

/** FALLOC_FL_KEEP_SIZE | FALLOC_FL_PUNCH_HOLE. */
const PUNCH_HOLE_KEEP_SIZE = 0x01 | 0x02;

/** On the pool: 0, or -1 (not supported here, or failed); rejects when koffi could not call. */
export type PunchHoleFn = (fd: number, offset: number, length: number) => Promise<number>;

/** The call (throws where libc cannot be opened or lacks it). */
export const punchHoleCall: () => PunchHoleFn = declareOnce(() => {
  const fn = libc().func('int fallocate(int fd, int mode, int64_t offset, int64_t len)');
  return (fd, offset, length) =>
    new Promise((resolve, reject) => {
      fn.async(fd, PUNCH_HOLE_KEEP_SIZE, offset, length, (err: unknown, rc: number) => {
        if (err) reject(err);
        else resolve(rc);
      });
    });
});
