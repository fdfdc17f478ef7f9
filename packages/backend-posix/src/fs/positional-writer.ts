// Writes a body into a file at explicit positions without waiting for each write: writes run on
// the libuv pool while the caller hashes the next bytes on the main thread. Owned chunks are
// batched (fewer syscalls); lent chunks (views of someone else's memory) are written at once and
// handed back through their callback only when their write finished. Invariant: settle() returns
// only when no write is in flight, so no memory is read after the caller lets it go.
// A small body (nothing written yet, at most INLINE_MAX queued at finish) is written inline with
// one pwritev: a page-cache copy of a few KiB takes microseconds, where a libuv pool round trip
// (a futex wake each way and a promise) cost more CPU than the write on the 2-core VM.
import { writevSync } from 'node:fs';
import type { PositionalFile } from './fd-file.js';

/** Owned chunks are batched to about this size. */
const BATCH = 1 << 20;
/** Bytes in flight before write() callers are asked to wait (drain()). */
const MAX_IN_FLIGHT = 8 << 20;
/** Largest whole body written inline by finish(). */
const INLINE_MAX = 64 << 10;

export class PositionalWriter {
  private position = 0;
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private inFlightBytes = 0;
  private readonly inFlight = new Set<Promise<void>>();
  private error: unknown;

  /** `base`: where in the file the body's first byte goes (a multipart part written in place). */
  constructor(
    private readonly fh: PositionalFile,
    private readonly base = 0,
  ) {}

  /** Queues an owned chunk (the caller will not change it); written in batches. */
  push(chunk: Buffer): void {
    this.pending.push(chunk);
    this.pendingBytes += chunk.length;
    if (this.pendingBytes >= BATCH) this.flushPending();
  }

  /** Writes a lent chunk now; `done` runs once its write finished (or failed). */
  writeLent(chunk: Buffer, done: () => void): void {
    this.flushPending();
    this.start([chunk], done);
  }

  /** Waits while too many bytes are in flight; throws the first write error. */
  async drain(): Promise<void> {
    while (this.inFlightBytes > MAX_IN_FLIGHT && this.error === undefined) await Promise.race(this.inFlight);
    if (this.error !== undefined) throw this.error;
  }

  /** Writes what is queued and waits for every write; throws the first write error. */
  async finish(): Promise<void> {
    if (this.position === 0 && this.inFlight.size === 0 && this.pendingBytes <= INLINE_MAX) {
      const chunks = this.pending;
      this.pending = [];
      this.position = this.pendingBytes;
      this.pendingBytes = 0;
      writeAllSync(this.fh.fd, chunks, this.base);
      this.fh.wrote?.(this.base, this.position);
      return;
    }
    this.flushPending();
    await this.settle();
    if (this.error !== undefined) throw this.error;
  }

  /** Waits until no write is in flight (never throws). */
  async settle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  private flushPending(): void {
    if (this.pendingBytes === 0) return;
    const chunks = this.pending;
    this.pending = [];
    this.pendingBytes = 0;
    this.start(chunks);
  }

  private start(chunks: Buffer[], done?: () => void): void {
    const bytes = chunks.reduce((n, c) => n + c.length, 0);
    const position = this.position;
    this.position += bytes;
    this.inFlightBytes += bytes;
    const p = writeAll(this.fh, chunks, this.base + position)
      .catch((err: unknown) => {
        this.error ??= err;
      })
      .finally(() => {
        this.inFlight.delete(p);
        this.inFlightBytes -= bytes;
        done?.();
      });
    this.inFlight.add(p);
  }
}

/** The chunks left after `written` bytes of them. */
function rest(chunks: Buffer[], written: number): Buffer[] {
  let skip = written;
  const next: Buffer[] = [];
  for (const c of chunks) {
    if (skip >= c.length) {
      skip -= c.length;
      continue;
    }
    next.push(skip > 0 ? c.subarray(skip) : c);
    skip = 0;
  }
  return next;
}

/** writeAll on this thread (small bodies). */
function writeAllSync(fd: number, chunks: Buffer[], position: number): void {
  let left = chunks;
  let at = position;
  while (left.length > 0) {
    const written = writevSync(fd, left, at);
    at += written;
    const next = rest(left, written);
    if (written === 0 && next.length > 0) throw new Error('pwritev wrote nothing');
    left = next;
  }
}

/** pwritev until every byte is written (a regular file may take fewer bytes in one call). */
async function writeAll(fh: PositionalFile, chunks: Buffer[], position: number): Promise<void> {
  let left = chunks;
  let at = position;
  while (left.length > 0) {
    const { bytesWritten } = await fh.writev(left, at);
    at += bytesWritten;
    const next = rest(left, bytesWritten);
    if (bytesWritten === 0 && next.length > 0) throw new Error('pwritev wrote nothing');
    left = next;
  }
}
