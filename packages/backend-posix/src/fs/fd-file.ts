// An open file as a bare descriptor with the few promise methods a temp file needs (a FileHandle's
// subset: writev, write, chmod, chown, close). Why not a FileHandle: a FileHandle can only be
// closed through the libuv pool, and that round trip (a futex wake each way, two context switches,
// a promise) cost ~0.08 ms of CPU per 4 KiB PUT on the 2-core VM, more than the close itself. A
// file that holds at most INLINE_CLOSE_MAX bytes is closed inline: close(2) of a small local file
// writes nothing back (ext4 flushes at close only after a truncate to zero, which a temp file never
// gets; an NFS client flushes what is dirty, here a few KiB at most). Larger files close on the pool.
// Invariant: the descriptor is closed exactly once (close() is idempotent), and the owner (TempFile)
// closes it on every path, published or discarded.
import { close, closeSync, fchmod, fchown, open, write, writev } from 'node:fs';
import { promisify } from 'node:util';

const openAsync = promisify(open);
const closeAsync = promisify(close);
const fchmodAsync = promisify(fchmod);
const fchownAsync = promisify(fchown);
const writevAsync = promisify(writev);
const writeAsync = promisify(write);

/** Files up to this size are closed on the calling thread. */
export const INLINE_CLOSE_MAX = 64 << 10;

/** What PositionalWriter writes through (a FileHandle has the same shape). */
export interface PositionalFile {
  readonly fd: number;
  writev(buffers: Buffer[], position: number): Promise<{ bytesWritten: number }>;
  /** Told of bytes written to `fd` directly (an inline write). */
  wrote?(position: number, bytes: number): void;
}

export class FdFile implements PositionalFile {
  /** The end of the furthest write so far. */
  private extent = 0;
  private closing: Promise<void> | undefined;

  private constructor(readonly fd: number) {}

  /** open(2) with `flags` (as fs.open takes them) and `mode`, on the libuv pool. */
  static async open(path: string, flags: string, mode: number): Promise<FdFile> {
    return new FdFile(await openAsync(path, flags, mode));
  }

  async writev(buffers: Buffer[], position: number): Promise<{ bytesWritten: number }> {
    const { bytesWritten } = await writevAsync(this.fd, buffers, position);
    this.extent = Math.max(this.extent, position + bytesWritten);
    return { bytesWritten };
  }

  async write(
    buffer: Buffer,
    offset: number,
    length: number,
    position: number,
  ): Promise<{ bytesWritten: number }> {
    const { bytesWritten } = await writeAsync(this.fd, buffer, offset, length, position);
    this.extent = Math.max(this.extent, position + bytesWritten);
    return { bytesWritten };
  }

  /** Records bytes written to the descriptor by someone else (PositionalWriter's inline write). */
  wrote(position: number, bytes: number): void {
    this.extent = Math.max(this.extent, position + bytes);
  }

  chmod(mode: number): Promise<void> {
    return fchmodAsync(this.fd, mode);
  }

  chown(uid: number, gid: number): Promise<void> {
    return fchownAsync(this.fd, uid, gid);
  }

  /** Closes the descriptor once; a small file inline, a larger one on the pool. */
  close(): Promise<void> {
    if (this.closing) return this.closing;
    if (this.extent <= INLINE_CLOSE_MAX) {
      try {
        closeSync(this.fd);
        this.closing = Promise.resolve();
      } catch (err) {
        this.closing = Promise.reject(err);
      }
    } else this.closing = closeAsync(this.fd);
    return this.closing;
  }
}
