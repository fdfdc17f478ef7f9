// A lease on one pool buffer: the registered RdmaBuffer, its address, a byte view, and slices of
// it. Slicing lets one large request pipeline inside a single buffer: slice A is on the wire while
// slice B is being filled or drained. A lease is returned exactly once (release() or `using`);
// after that its slices must not be used — the buffer may already belong to another request.

import { InvalidArgumentError, InvalidStateError } from '@vgwrdma/errors';
import type { RdmaBuffer } from '@vgwrdma/rdma-ffi';

/** A window [offset, offset + length) of a leased buffer, ready for RdmaServer transfers. */
export interface BufferSlice {
  /** The registered buffer (pass as `buffer`, with `offset` as `localOffset`). */
  readonly buffer: RdmaBuffer;
  readonly offset: number;
  readonly length: number;
  /** The slice's bytes (no copy). */
  readonly bytes: Uint8Array;
}

export class BufferLease implements Disposable {
  private released = false;

  /** @internal Created by BufferPool.acquire(). */
  constructor(
    /** The registered buffer this lease grants. */
    readonly buffer: RdmaBuffer,
    private readonly onRelease: (lease: BufferLease) => void,
  ) {}

  /** Native address of the buffer, as C and the NIC see it. */
  get address(): bigint {
    return this.buffer.address;
  }

  /** Size of the buffer in bytes. */
  get size(): number {
    return this.buffer.size;
  }

  /** Whether release() has run. */
  get isReleased(): boolean {
    return this.released;
  }

  /** The whole buffer as bytes (no copy; an ArrayBuffer view of native memory). */
  get bytes(): Uint8Array {
    this.assertLive();
    return this.buffer.bytes;
  }

  /** A window of the buffer. Throws InvalidArgumentError when it does not fit. */
  slice(offset: number, length: number): BufferSlice {
    this.assertLive();
    if (
      !Number.isSafeInteger(offset) ||
      !Number.isSafeInteger(length) ||
      offset < 0 ||
      length <= 0 ||
      offset + length > this.size
    ) {
      throw new InvalidArgumentError(`slice [${offset}, +${length}) outside a ${this.size}-byte buffer`);
    }
    return {
      buffer: this.buffer,
      offset,
      length,
      bytes: this.buffer.bytes.subarray(offset, offset + length),
    };
  }

  /**
   * Cuts the buffer into consecutive slices of `chunkSize` bytes (at most `maxSlices`, default
   * as many as fit; at least one, shorter when the buffer is smaller than `chunkSize`).
   */
  slices(chunkSize: number, maxSlices = Number.POSITIVE_INFINITY): BufferSlice[] {
    if (!Number.isSafeInteger(chunkSize) || chunkSize <= 0)
      throw new InvalidArgumentError(`chunk size must be a positive integer, got ${chunkSize}`);
    const size = Math.min(chunkSize, this.size);
    const n = Math.max(1, Math.min(maxSlices, Math.floor(this.size / size)));
    return Array.from({ length: n }, (_, i) => this.slice(i * size, size));
  }

  /** Returns the buffer to the pool. Idempotent. */
  release(): void {
    if (this.released) return;
    this.released = true;
    this.onRelease(this);
  }

  [Symbol.dispose](): void {
    this.release();
  }

  private assertLive(): void {
    if (this.released) throw new InvalidStateError('buffer lease used after release()');
  }
}
