// Names of temp files in `.sgwtmp`: `<owner>.<24 hex digits>` (fs/owner.ts says how the owner part
// lets a restart remove only dead processes' files). The random part is cut from a block of random
// bytes drawn 256 names at a time: one `randomBytes(12)` per PUT cost ~1.4 % of a 4 KiB PUT's CPU
// in the gateway's profile (a synchronous call into OpenSSL each time); the names stay as
// unpredictable, each one 96 fresh random bits.
import { randomBytes } from 'node:crypto';
import { ownerId } from './owner.js';

const BYTES = 12;
const BLOCK = 256;
let block: Buffer = Buffer.alloc(0);
let used = 0;

/** A fresh temp-file name (no directory). */
export function tempName(): string {
  if (used + BYTES > block.length) {
    block = randomBytes(BYTES * BLOCK);
    used = 0;
  }
  const hex = block.toString('hex', used, used + BYTES);
  used += BYTES;
  return `${ownerId()}.${hex}`;
}
