// An object file opened for reading as a bare descriptor, with the FileHandle subset the readers
// use (fd, read, createReadStream, close). Why not a FileHandle: every FileHandle call is a libuv
// pool round trip, and on the 2-core VM the three of a GET (open, read, close) were 31 % of the
// gateway's busy time serving 1 MiB GETs (`--cpu-prof`: a futex wake each way and a promise, more
// than the work they carry). Here each step runs on the calling thread when it cannot block:
//   open  — openat2(RESOLVE_CACHED): succeeds only if every path component is in the dentry
//           cache, else EAGAIN and the pool's open (kernels before 5.12 say EINVAL: the pool too);
//   read  — preadv2(RWF_NOWAIT) for requests up to INLINE_READ_MAX: answers only from the page
//           cache, else EAGAIN and the pool's read (larger requests, the RDMA path's slices, stay
//           on the pool so the event loop never copies megabytes);
//   close — inline: closing a descriptor opened read-only writes nothing back.
// Invariant: the descriptor is closed exactly once, after any read in flight (a stream closes it
// through its own close hook when its I/O is done), and close() is idempotent.
import { closeSync, createReadStream, constants as fsConstants, open, type ReadStream, read } from 'node:fs';
import { constants as osConstants } from 'node:os';
import { promisify } from 'node:util';
import { AT_FDCWD, inlineReadCalls, lastErrno } from '@vgwrdma/native';
import { errnoError } from './errno-error.js';

const openAsync = promisify(open);

/** Requests up to this size are tried inline (a page-cache copy of 1 MiB: ~55 µs on the VM). */
export const INLINE_READ_MAX = 1 << 20;

const { EAGAIN, EINVAL, EOPNOTSUPP } = osConstants.errno;
/**
 * Read-only, and never blocking in open(2) itself: a FIFO or a device node someone left in the tree
 * opens at once (and is then no regular file, so no object) instead of stalling the thread until a
 * writer appears. O_NONBLOCK does not change reads of regular files.
 */
const OPEN_FLAGS = fsConstants.O_RDONLY | fsConstants.O_NONBLOCK | fsConstants.O_NOCTTY;
const O_CLOEXEC = 0o2000000;
const RESOLVE_CACHED = 0x20;
const RESOLVE_NO_MAGICLINKS = 0x02;
const RWF_NOWAIT = 0x8;

/** openat2 and preadv2 (@vgwrdma/native): undefined off Linux or where libc lacks them. */
const native = inlineReadCalls();

/** struct open_how { u64 flags; u64 mode; u64 resolve; } for O_RDONLY, cached lookups only. */
const OPEN_HOW = (() => {
  const how = Buffer.alloc(24);
  how.writeBigUInt64LE(BigInt(OPEN_FLAGS | O_CLOEXEC), 0);
  how.writeBigUInt64LE(BigInt(RESOLVE_CACHED | RESOLVE_NO_MAGICLINKS), 16);
  return how;
})();

function readAsync(fd: number, target: Uint8Array, offset: number, length: number, position: number) {
  return new Promise<number>((resolve, reject) =>
    read(fd, target, offset, length, position, (err, bytesRead) => (err ? reject(err) : resolve(bytesRead))),
  );
}

/** How often each path was taken (tests, and a look at a running gateway's heap). */
export const readPaths = { inlineOpens: 0, poolOpens: 0, inlineReads: 0, poolReads: 0 };

export class ReadFd {
  /** Reads of read() on the pool, not yet answered. */
  private pending = 0;
  /** Streams made by createReadStream that have not run their close hook yet. */
  private readonly streams = new Set<ReadStream>();
  private closing: Promise<void> | undefined;
  private settle: { resolve: () => void; reject: (err: unknown) => void } | undefined;
  private fdClosed = false;
  /** False once the file system said it cannot read without blocking (EOPNOTSUPP: tmpfs does). */
  private noWait = native !== undefined;

  private constructor(readonly fd: number) {}

  /** Opens `path` read-only: inline when its lookup is cached, on the pool otherwise. */
  static async open(path: string): Promise<ReadFd> {
    if (native !== undefined) {
      const fd = native.openat2(AT_FDCWD, path, OPEN_HOW);
      if (fd >= 0) {
        readPaths.inlineOpens++;
        return new ReadFd(fd);
      }
      const errno = lastErrno();
      // Not cached (EAGAIN), or a kernel without RESOLVE_CACHED (EINVAL before 5.12): the pool
      // opens it. Any other failure (ENOENT, EACCES, ELOOP, …) is the answer: a missing key is
      // not opened a second time.
      if (errno !== EAGAIN && errno !== EINVAL) throw errnoError(errno, 'open', path);
    }
    readPaths.poolOpens++;
    return new ReadFd(await openAsync(path, OPEN_FLAGS));
  }

  /** Reads up to `length` bytes at `position` into `target` at `offset` (FileHandle.read's shape). */
  async read(
    target: Uint8Array,
    offset: number,
    length: number,
    position: number,
  ): Promise<{ bytesRead: number }> {
    if (this.closing) throw Object.assign(new Error('EBADF: read after close'), { code: 'EBADF' });
    if (this.noWait && native !== undefined && length > 0 && length <= INLINE_READ_MAX) {
      const view = new Uint8Array(target.buffer, target.byteOffset + offset, length);
      const got = native.preadv2(this.fd, view, position, RWF_NOWAIT);
      if (got >= 0) {
        readPaths.inlineReads++;
        return { bytesRead: got };
      }
      if (lastErrno() === EOPNOTSUPP) this.noWait = false;
      // EAGAIN: not all in the page cache; EOPNOTSUPP: a file system without RWF_NOWAIT; the
      // pool's read answers either (and any real error, as Node's error object)
    }
    this.pending++;
    readPaths.poolReads++;
    try {
      return { bytesRead: await readAsync(this.fd, target, offset, length, position) };
    } finally {
      this.pending--;
      this.closeIfIdle();
    }
  }

  /**
   * A stream over [start, end] that closes this descriptor when it ends or is destroyed: Node's
   * stream calls its close hook only once no read of its own is in flight.
   */
  createReadStream(opts: { start?: number; end?: number; highWaterMark?: number } = {}): ReadStream {
    let stream: ReadStream | undefined;
    const fs = {
      read,
      open,
      close: (_fd: number, cb: (err: NodeJS.ErrnoException | null) => void) => {
        if (stream) this.streams.delete(stream);
        this.close().then(() => cb(null), cb);
      },
    };
    stream = createReadStream('', { ...opts, fd: this.fd, fs, autoClose: true } as Parameters<
      typeof createReadStream
    >[1]);
    this.streams.add(stream);
    return stream;
  }

  /**
   * Closes the descriptor once, after every read in flight and every stream over it (destroyed
   * here) is done. Inline: it was opened read-only, so close(2) writes nothing back.
   */
  close(): Promise<void> {
    if (!this.closing) {
      this.closing = new Promise<void>((resolve, reject) => {
        this.settle = { resolve, reject };
      });
      for (const s of this.streams) s.destroy();
    }
    this.closeIfIdle();
    return this.closing;
  }

  private closeIfIdle(): void {
    if (!this.settle || this.fdClosed || this.pending > 0 || this.streams.size > 0) return;
    this.fdClosed = true;
    try {
      closeSync(this.fd);
      this.settle.resolve();
    } catch (err) {
      this.settle.reject(err);
    }
  }
}

/** Whether the inline paths exist here (Linux with libc's preadv2; tests). */
export const inlineReads = native !== undefined;
