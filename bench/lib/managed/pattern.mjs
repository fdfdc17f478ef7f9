// The benchmark's data: a deterministic function of the offset, so any size (16 GiB and more) can
// be made and checked a part at a time without holding it. Byte o is BLOCK[o mod BLOCK_SIZE] (64
// MiB of random bytes, fixed per run), except that every 1 MiB stripe starts with its index (8
// bytes, little-endian): a part written at the wrong offset, or twice, never compares equal.
import { randomFillSync } from 'node:crypto';

const MiB = 2 ** 20;
const STRIPE = MiB;
const BLOCK_SIZE = 64 * MiB;
const BLOCK = Buffer.allocUnsafeSlow(BLOCK_SIZE);
randomFillSync(BLOCK);

/** Fills `into` with the pattern's bytes [offset, offset + into.length). */
export function fillPattern(into, offset) {
  const out = Buffer.from(into.buffer, into.byteOffset, into.length);
  let at = 0;
  while (at < out.length) {
    const o = offset + at;
    const inBlock = o % BLOCK_SIZE;
    const n = Math.min(out.length - at, BLOCK_SIZE - inBlock);
    BLOCK.copy(out, at, inBlock, inBlock + n);
    at += n;
  }
  // Stamp the stripes whose 8-byte index overlaps this range (one may start just before it).
  const stamp = Buffer.alloc(8);
  for (let s = Math.floor(offset / STRIPE) * STRIPE; s < offset + out.length; s += STRIPE) {
    if (s + 8 <= offset) continue;
    stamp.writeBigUInt64LE(BigInt(s / STRIPE));
    const from = Math.max(0, offset - s); // stamp bytes before the range
    stamp.copy(out, s + from - offset, from, Math.min(8, offset + out.length - s));
  }
}

const scratch = { buf: Buffer.alloc(0) };

/** Whether `bytes` equal the pattern's bytes [offset, offset + bytes.length) (compared 64 MiB at a time). */
export function matchesPattern(bytes, offset) {
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  for (let at = 0; at < view.length; at += BLOCK_SIZE) {
    const n = Math.min(BLOCK_SIZE, view.length - at);
    if (scratch.buf.length < n) scratch.buf = Buffer.allocUnsafeSlow(BLOCK_SIZE);
    const want = scratch.buf.subarray(0, n);
    fillPattern(want, offset + at);
    if (Buffer.compare(want, view.subarray(at, at + n)) !== 0) return false;
  }
  return true;
}
