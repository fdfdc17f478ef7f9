// The PUT / UploadPart side: the client's memory, RDMA-READ chunk by chunk, becomes the body
// stream the wrapped backend consumes, so its ETag, checksum and atomic-publish logic run
// unchanged on the bytes that arrived. Pipelined: while the backend consumes chunk i, the READ of
// chunk i+1 is already on the wire.
// The backend gets a copy of each chunk, never a view of pool memory: the Backend contract lets
// a consumer keep a chunk after asking for the next one (posix batches writes), and a slice is
// overwritten by the next READ. The copy is what makes slice reuse safe.

import { Readable } from 'node:stream';
import type { RdmaSession } from './rdma-session.js';

export class RdmaUpload {
  private readonly chunks: number;
  private reads: (Promise<number> | undefined)[] = [];
  /** The first transfer error, once one happened. */
  error: unknown;

  constructor(
    private readonly session: RdmaSession,
    /** Payload bytes to read from the token window. */
    readonly size: number,
  ) {
    this.chunks = Math.ceil(size / session.chunkSize);
  }

  private launch(i: number): void {
    if (i >= this.chunks) return;
    const chunk = this.session.chunkSize;
    const offset = i * chunk;
    const p = this.session.transfer(
      'read',
      i % this.session.slices.length,
      Math.min(chunk, this.size - offset),
      offset,
    );
    p.catch((err: unknown) => {
      this.error ??= err;
    });
    this.reads[i] = p;
  }

  /** Starts the first READ and waits for it; throws its RdmaError (the caller may still decline). */
  async prime(): Promise<void> {
    this.launch(0);
    await this.reads[0];
  }

  private async *generate(): AsyncGenerator<Buffer> {
    for (let i = 0; i < this.chunks; i++) {
      if (!this.reads[i]) this.launch(i);
      const n = await (this.reads[i] as Promise<number>);
      this.reads[i] = undefined;
      const slice = this.session.slices[i % this.session.slices.length];
      if (!slice) throw new RangeError('slice missing');
      const copy = Buffer.allocUnsafe(n);
      copy.set(slice.bytes.subarray(0, n));
      // The slice is free again: start the next READ before handing this chunk over.
      this.launch(i + 1);
      yield copy;
    }
  }

  /** The body stream: the payload in order; it errors with the RdmaError if a READ fails. */
  body(): Readable {
    // Byte mode with a one-chunk high-water mark: at most one chunk waits in the stream while the
    // backend consumes another and the next READ runs.
    return Readable.from(this.generate(), { objectMode: false, highWaterMark: this.session.chunkSize });
  }
}
