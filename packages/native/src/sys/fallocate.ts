// fallocate(2), libc's (Node has none), in the two forms the posix backend uses on a multipart
// upload's assembly file:
//   - preallocate: reserves a part's region before its bytes are written in place (the file grows
//     to the region's end if shorter; the region reads as zeros until written). A buffered
//     write holds the file's lock while it allocates blocks, so parts writing one file at once
//     wait on each other; with the blocks already there each write only copies (on the H200
//     host's ext4, sixteen writers into one file: 2.6–3.7 GB/s → 4.9–5.1 GB/s, docs/performance.md);
//   - punch a hole: gives back the blocks of a part whose in-place write failed, so a failed
//     UploadPart does not keep its bytes' space until the upload ends. The size is kept. (ext4
//     punches nothing past the end of a file, which is why preallocation grows the file rather
//     than reserving past its end.)
import { libc } from '../libc.js';
import { declareOnce } from './once.js';

const KEEP_SIZE = 0x01;
const PUNCH_HOLE = 0x02;

/** On the pool: 0, or -1 (not supported here, or failed); rejects when koffi could not call. */
export type FallocateFn = (fd: number, offset: number, length: number) => Promise<number>;
const fallocate = declareOnce(() =>
  libc().func('int fallocate(int fd, int mode, int64_t offset, int64_t len)'),
);

function fallocateCall(mode: number): () => FallocateFn {
  return declareOnce(() => {
    const fn = fallocate();
    return (fd, offset, length) =>
      new Promise((resolve, reject) => {
        fn.async(fd, mode, offset, length, (err: unknown, rc: number) => {
          if (err) reject(err);
          else resolve(rc);
        });
      });
  });
}

/** FALLOC_FL_KEEP_SIZE | FALLOC_FL_PUNCH_HOLE (throws where libc cannot be opened or lacks it). */
export const punchHoleCall: () => FallocateFn = fallocateCall(KEEP_SIZE | PUNCH_HOLE);

/** Mode 0: the region's blocks reserved, the file grown to the region's end if it was shorter. */
export const preallocateCall: () => FallocateFn = fallocateCall(0);
