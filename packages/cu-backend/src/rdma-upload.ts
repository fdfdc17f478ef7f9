// The PUT / UploadPart side: the client's memory, RDMA-READ chunk by chunk into pool slices,
// becomes the body the wrapped backend consumes, so its ETag, checksum and atomic-publish logic
// run unchanged on the bytes that arrived. Pipelined: READs run ahead into free slices while the
// backend consumes earlier chunks. Two ways to consume it:
//   - as a stream: each chunk is a copy (the Backend contract lets a consumer keep a chunk after
//     asking for the next), and its slice is free again as soon as it is copied;
//   - by BORROW_CHUNKS: each chunk is lent as a view of its slice, with no copy, and the slice is
//     free again only when the backend releases the chunk (after hashing and writing it).
// When the request's signature pins the payload's SHA-256, the chunks are hashed as they pass
// (off the main thread for large payloads) and the body fails with XAmzContentSHA256Mismatch
// instead of ending, so the backend publishes nothing (as the HTTP path's PlainBody does).
// With a second lane (a large PUT on a lightly loaded server) chunk i is READ on lane i % 2, two
// READs (two softnic copy threads) at once; chunks still reach the consumer in order.
// Invariants: a READ goes only into a free slice; one READ at a time on each lane (channel); a
// lent slice is READ into again only after the backend released it AND the hash has consumed it.

import { Readable } from 'node:stream';
import {
  BORROW_CHUNKS,
  type LentChunk,
  S3Error,
  type StreamDigest,
  streamDigest,
} from '@vgwrdma/backend-contract';
import type { RdmaSession } from './rdma-session.js';

interface Deferred {
  promise: Promise<number>;
  resolve(n: number): void;
  reject(err: unknown): void;
}

function deferred(): Deferred {
  let resolve!: (n: number) => void;
  let reject!: (err: unknown) => void;
  const promise = new Promise<number>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  promise.catch(() => {}); // awaited by the consumer; never an unhandled rejection when it left
  return { promise, resolve, reject };
}

export class RdmaUpload {
  private readonly chunks: number;
  private readonly done = new Map<number, Deferred>();
  private readonly freed: boolean[] = [];
  private next = 0; // next chunk to READ
  private readonly laneBusy: boolean[] = []; // lane → a READ is on its wire
  private stopped = false; // the consumer is gone: no more READs
  /** The first transfer error, once one happened. */
  error: unknown;
  /** Set when the payload did not hash to the signed SHA-256. */
  mismatch: S3Error | undefined;
  private readonly hash: StreamDigest | undefined;
  /** Lent slices the hash still reads (off the main thread), and who waits for none. */
  private hashing = 0;
  private hashIdle: (() => void) | undefined;

  constructor(
    private readonly session: RdmaSession,
    /** Payload bytes to read from the token window. */
    readonly size: number,
    /** Lower-case hex SHA-256 the payload must hash to (the signed x-amz-content-sha256). */
    private readonly sha256?: string,
  ) {
    this.chunks = Math.ceil(size / session.chunkSize);
    this.hash = sha256 === undefined ? undefined : streamDigest('sha256', size);
  }

  /** After the last chunk: fails the body unless the payload hashed to the signed value. */
  private async verify(): Promise<void> {
    if (!this.hash) return;
    const digest = (await this.hash.digest()).toString('hex');
    if (digest === this.sha256) return;
    this.mismatch = new S3Error('XAmzContentSHA256Mismatch');
    throw this.mismatch;
  }

  /** Lets go of the hash's queued chunks (the body is finished or abandoned). */
  dispose(): void {
    this.hash?.dispose();
  }

  /** Resolves once the hash reads no lent slice any more: the lease may go back after it. */
  async hashSettled(): Promise<void> {
    while (this.hashing > 0)
      await new Promise<void>((resolve) => {
        this.hashIdle = resolve;
      });
  }

  private readDone(i: number): Deferred {
    let d = this.done.get(i);
    if (!d) {
      d = deferred();
      if (this.error !== undefined) d.reject(this.error);
      this.done.set(i, d);
    }
    return d;
  }

  /** Starts the next READs, in chunk order, while each one's lane is idle and its slice is free. */
  private pump(): void {
    const slots = this.session.slices.length;
    const lanes = this.session.lanes;
    for (;;) {
      const i = this.next;
      if (this.stopped || this.error !== undefined || i >= this.chunks) return;
      if (i >= slots && !this.freed[i - slots]) return;
      const lane = i % lanes;
      if (this.laneBusy[lane]) return;
      this.next++;
      this.laneBusy[lane] = true;
      const chunk = this.session.chunkSize;
      const offset = i * chunk;
      const d = this.readDone(i);
      this.session.transfer('read', i % slots, Math.min(chunk, this.size - offset), offset, lane).then(
        (n) => {
          this.laneBusy[lane] = false;
          d.resolve(n);
          this.pump();
        },
        (err: unknown) => {
          this.laneBusy[lane] = false;
          this.error ??= err;
          for (const [j, waiting] of this.done) if (j >= i) waiting.reject(err);
        },
      );
    }
  }

  /** Starts no more READs (the backend finished or failed); those on the wire still complete. */
  stop(): void {
    this.stopped = true;
  }

  /** Chunk `i`'s slice may be read into again. */
  private free(i: number): void {
    if (this.freed[i]) return;
    this.freed[i] = true;
    this.pump();
  }

  /** Starts the first READ and waits for it; throws its RdmaError (the caller may still decline). */
  async prime(): Promise<void> {
    this.pump();
    await this.readDone(0).promise;
  }

  /** Chunk `i` once it arrived: the byte count and its slice's bytes. */
  private async arrived(i: number): Promise<Uint8Array> {
    this.pump();
    const n = await this.readDone(i).promise;
    this.done.delete(i);
    const slice = this.session.slices[i % this.session.slices.length];
    if (!slice) throw new RangeError('slice missing');
    return slice.bytes.subarray(0, n);
  }

  private async *copies(): AsyncGenerator<Buffer> {
    for (let i = 0; i < this.chunks; i++) {
      const bytes = await this.arrived(i);
      const copy = Buffer.allocUnsafe(bytes.length);
      copy.set(bytes);
      this.free(i);
      if (this.hash) {
        this.hash.update(copy); // a copy never changes: the hash may queue it
        await this.hash.backpressure();
      }
      yield copy;
    }
    await this.verify();
  }

  private async *lend(): AsyncGenerator<LentChunk> {
    for (let i = 0; i < this.chunks; i++) {
      const bytes = await this.arrived(i);
      // The slice is free again once both the backend released it and the hash consumed it.
      let holds = this.hash ? 2 : 1;
      const drop = () => {
        if (--holds === 0) this.free(i);
      };
      if (this.hash) {
        this.hashing++;
        this.hash.update(bytes, () => {
          if (--this.hashing === 0) this.hashIdle?.();
          drop();
        });
      }
      let released = false;
      yield {
        bytes: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length),
        release: () => {
          if (released) return;
          released = true;
          drop();
        },
      };
    }
    await this.verify();
  }

  /**
   * The body stream: the payload in order; it errors with the RdmaError if a READ fails. It also
   * lends its chunks without copies to a consumer that asks by BORROW_CHUNKS.
   */
  body(): Readable {
    // Byte mode with a one-chunk high-water mark: at most one chunk waits in the stream while the
    // backend consumes another and the next READ runs.
    const stream = Readable.from(this.copies(), {
      objectMode: false,
      highWaterMark: this.session.chunkSize,
    });
    let lent = false;
    return Object.assign(stream, {
      [BORROW_CHUNKS]: (): AsyncIterable<LentChunk> => {
        if (lent) throw new Error('the body was already borrowed');
        lent = true;
        return this.lend();
      },
    });
  }
}
