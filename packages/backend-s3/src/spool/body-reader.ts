// Reads a client's body of unknown length in stretches: each `fill` moves up to a given number of
// bytes into a spool and through the hashers it is given (the whole body's digests, the part's
// checksum), splitting a chunk that crosses the boundary. `atEnd` tells whether any byte is left
// (after the end an aws-chunked trailer has been read, so the expected checksum is known). The
// client's stream is never destroyed here: the gateway still answers on its socket.
import type { Readable } from 'node:stream';
import { S3Error } from '@vgwrdma/backend-contract';
import type { Spool } from './spool.js';

/** Anything that takes the bytes as they go by (MD5, a flexible checksum). */
export interface ByteSink {
  update(chunk: Uint8Array): unknown;
}

export class BodyReader {
  private readonly chunks: AsyncIterator<Buffer>;
  /** What is left of a chunk split at the last boundary (or a chunk read ahead by `atEnd`). */
  private pending: Buffer | undefined;
  private ended = false;
  private bytes = 0;

  /** `maxBytes`: the most the whole body may carry (EntityTooLarge beyond). */
  constructor(
    source: Readable,
    private readonly maxBytes: number,
  ) {
    this.chunks = source.iterator({ destroyOnReturn: false })[Symbol.asyncIterator]();
  }

  /** Bytes read so far. */
  get size(): number {
    return this.bytes;
  }

  /** Moves up to `limit` bytes into `spool`, feeding each to `sinks`. */
  async fill(spool: Spool, limit: number, sinks: readonly ByteSink[]): Promise<void> {
    let room = limit - spool.size;
    while (room > 0) {
      const chunk = await this.next();
      if (chunk === undefined) return;
      const take = chunk.length <= room ? chunk : chunk.subarray(0, room);
      if (take.length < chunk.length) this.pending = chunk.subarray(room);
      for (const sink of sinks) sink.update(take);
      await spool.write(take);
      room -= take.length;
    }
  }

  /** Whether the body has no bytes left (reads ahead one chunk to know). */
  async atEnd(): Promise<boolean> {
    if (this.pending !== undefined) return false;
    const chunk = await this.next();
    if (chunk === undefined) return true;
    this.pending = chunk;
    return false;
  }

  private async next(): Promise<Buffer | undefined> {
    if (this.pending !== undefined) {
      const chunk = this.pending;
      this.pending = undefined;
      return chunk;
    }
    while (!this.ended) {
      let step: IteratorResult<Buffer>;
      try {
        step = await this.chunks.next();
      } catch (err) {
        throw err instanceof S3Error
          ? err
          : new S3Error('IncompleteBody', 'The request body terminated unexpectedly', { cause: err });
      }
      if (step.done) {
        this.ended = true;
        break;
      }
      const chunk = Buffer.isBuffer(step.value) ? step.value : Buffer.from(step.value);
      if (chunk.length === 0) continue;
      this.bytes += chunk.length;
      if (this.bytes > this.maxBytes) throw new S3Error('EntityTooLarge');
      return chunk;
    }
    return undefined;
  }
}
