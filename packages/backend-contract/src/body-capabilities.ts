// Optional capabilities of an object body, for consumers that can move bytes without the copies
// a stream makes. A body that has one is still an ordinary Readable: a consumer that does not
// know the capability just iterates it, and gets the same bytes.
//   READ_AT        a GetObject body backed by a file (or memory): reads payload bytes at a position
//                  straight into the caller's memory (CuServer reads into registered buffers).
//   BORROW_CHUNKS  a PutObject / UploadPart body backed by registered memory (CuServer's RDMA
//                  READs): chunks are lent as views, each valid until its release(); the producer
//                  reuses that memory only after it. A consumer that borrows must release every
//                  chunk it took, and must not touch a view after releasing it — nor after the
//                  backend call returned, so writes from a view are awaited before returning.
//   WHOLE_BYTES    a GetObject body already read whole into memory (a small object): the consumer
//                  may send those bytes in one write instead of piping the stream. Taking them
//                  consumes the body: the consumer must not read the stream as well.
// Symbols are registered (Symbol.for) so that two copies of this module agree.

export const READ_AT: unique symbol = Symbol.for('@vgwrdma/body.readAt');
export const BORROW_CHUNKS: unique symbol = Symbol.for('@vgwrdma/body.borrowChunks');
export const WHOLE_BYTES: unique symbol = Symbol.for('@vgwrdma/body.wholeBytes');

export interface PositionalBody {
  /**
   * Reads up to `target.length` payload bytes starting at payload offset `position` into
   * `target`; resolves with the count (0 only at the end of the payload).
   */
  [READ_AT](target: Uint8Array, position: number): Promise<number>;
}

/** One lent chunk: `bytes` stays valid until release() (idempotent). */
export interface LentChunk {
  readonly bytes: Buffer;
  release(): void;
}

export interface LendingBody {
  /** The payload in order as lent chunks; call at most once, instead of reading the stream. */
  [BORROW_CHUNKS](): AsyncIterable<LentChunk>;
}

export function isPositionalBody(body: unknown): body is PositionalBody {
  return typeof (body as Partial<PositionalBody> | null)?.[READ_AT] === 'function';
}

export function isLendingBody(body: unknown): body is LendingBody {
  return typeof (body as Partial<LendingBody> | null)?.[BORROW_CHUNKS] === 'function';
}

export interface WholeBody {
  /** Every payload byte, in one buffer. */
  readonly [WHOLE_BYTES]: Buffer;
}

export function isWholeBody(body: unknown): body is WholeBody {
  return Buffer.isBuffer((body as Partial<WholeBody> | null)?.[WHOLE_BYTES]);
}
