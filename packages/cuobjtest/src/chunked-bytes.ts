// Host memory of any size as a row of chunks (Node 20 caps one Uint8Array at 4 GiB): what the
// managed transports fill with random data, read parts from, write parts into and CRC32 — as a
// TransferManager source reader / destination writer, or as an HTTP part body.

import { randomFillSync } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { InvalidArgumentError } from '@vgwrdma/errors';

const CHUNK = 2 ** 30;
const FILL = 2 ** 30; // randomFillSync takes at most 2^31 - 1 bytes per call

export class ChunkedBytes {
  private readonly chunks: Uint8Array[] = [];

  constructor(readonly size: number) {
    for (let at = 0; at < size; at += CHUNK)
      this.chunks.push(Buffer.allocUnsafeSlow(Math.min(CHUNK, size - at)));
  }

  /** The chunks in order (views of the memory, no copy). */
  get parts(): readonly Uint8Array[] {
    return this.chunks;
  }

  fillRandom(): void {
    for (const c of this.chunks)
      for (let at = 0; at < c.length; at += FILL) randomFillSync(c, at, Math.min(FILL, c.length - at));
  }

  clear(): void {
    for (const c of this.chunks) c.fill(0);
  }

  crc(): number {
    let v = 0;
    for (const c of this.chunks) v = crc32(c, v);
    return v >>> 0;
  }

  /** Copies [offset, offset + into.length) into `into`. */
  read(offset: number, into: Uint8Array): void {
    this.walk(offset, into.length, (chunk, from, at, n) => into.set(chunk.subarray(from, from + n), at));
  }

  /** Copies `bytes` to [offset, offset + bytes.length). */
  write(offset: number, bytes: Uint8Array): void {
    this.walk(offset, bytes.length, (chunk, from, at, n) => chunk.set(bytes.subarray(at, at + n), from));
  }

  /** [offset, offset + length) as one Uint8Array: a view when it lies in one chunk, else a copy. */
  slice(offset: number, length: number): Uint8Array {
    const i = Math.floor(offset / CHUNK);
    const from = offset - i * CHUNK;
    const c = this.chunks[i];
    if (c && from + length <= c.length) return c.subarray(from, from + length);
    const out = Buffer.allocUnsafe(length);
    this.read(offset, out);
    return out;
  }

  private walk(
    offset: number,
    length: number,
    f: (chunk: Uint8Array, from: number, at: number, n: number) => void,
  ): void {
    if (offset < 0 || offset + length > this.size)
      throw new InvalidArgumentError(`[${offset}, +${length}) is outside ${this.size} bytes`);
    let at = 0;
    while (at < length) {
      const pos = offset + at;
      const i = Math.floor(pos / CHUNK);
      const from = pos - i * CHUNK;
      const chunk = this.chunks[i] as Uint8Array;
      const n = Math.min(chunk.length - from, length - at);
      f(chunk, from, at, n);
      at += n;
    }
  }
}
