// CRC combination in GF(2): crc(A || B) = crc(A) · x^(8·len(B)) mod P  ⊕  crc(B), for reflected
// CRCs whose init and final xor are both all-ones (CRC32, CRC32C, CRC64NVME): the all-ones
// terms cancel, so no knowledge of A or B beyond their CRCs and len(B) is needed.
// Values are held as bigint in the reflected bit order the CRCs use (x^0 is the top bit).

import { InvalidArgumentError } from '@vgwrdma/errors';

/** A reflected CRC polynomial of `width` bits, with its table of x^(2^k) mod P. */
export interface CrcField {
  readonly width: number;
  /** The polynomial, bit-reflected, without the x^width term. */
  readonly poly: bigint;
  /** x^(2^k) mod P for k = 0..63, built once. */
  readonly powers: readonly bigint[];
  /**
   * x^(8n) mod P by n, for recent lengths: the parts of one upload mostly share a size, so a
   * completion combining thousands of parts computes the operator once.
   */
  readonly shifts: Map<number, bigint>;
}

const SHIFT_CACHE_SIZE = 64;

export function crcField(width: number, reflectedPoly: bigint): CrcField {
  const field = { width, poly: reflectedPoly, powers: [] as bigint[], shifts: new Map<number, bigint>() };
  // x^1 is the second-highest bit in reflected order.
  let p = 1n << BigInt(width - 2);
  for (let k = 0; k < 64; k++) {
    field.powers.push(p);
    p = mulMod(field, p, p);
  }
  return field;
}

/** a · b mod P (both reflected). */
export function mulMod(f: Pick<CrcField, 'width' | 'poly'>, a: bigint, b: bigint): bigint {
  let m = 1n << BigInt(f.width - 1);
  let p = 0n;
  let bb = b;
  while (m !== 0n) {
    if (a & m) {
      p ^= bb;
      // Nothing lower left in a: done.
      if ((a & (m - 1n)) === 0n) break;
    }
    m >>= 1n;
    bb = bb & 1n ? (bb >> 1n) ^ f.poly : bb >> 1n;
  }
  return p;
}

/** x^(8·bytes) mod P, by squaring: the operator that shifts a CRC past `bytes` zero bytes. */
export function xPow8nMod(f: CrcField, bytes: number): bigint {
  let n = BigInt(bytes);
  let k = 3; // 8 = 2^3
  let p = 1n << BigInt(f.width - 1); // x^0
  while (n !== 0n) {
    if (n & 1n) {
      const power = f.powers[k % 64];
      if (power === undefined) throw new InvalidArgumentError('CRC length out of range');
      p = mulMod(f, power, p);
    }
    n >>= 1n;
    k++;
  }
  return p;
}

/** crc(A || B) from crc(A), crc(B) and len(B), on numeric CRC values. */
export function combineCrc(f: CrcField, crcA: bigint, crcB: bigint, lengthB: number): bigint {
  if (!Number.isSafeInteger(lengthB) || lengthB < 0)
    throw new InvalidArgumentError(`invalid length ${lengthB}`);
  if (lengthB === 0) return crcA;
  let shift = f.shifts.get(lengthB);
  if (shift === undefined) {
    shift = xPow8nMod(f, lengthB);
    if (f.shifts.size >= SHIFT_CACHE_SIZE) f.shifts.clear();
    f.shifts.set(lengthB, shift);
  }
  return mulMod(f, shift, crcA) ^ crcB;
}

/** Big-endian bytes of a CRC value, base64: how S3 writes CRC checksums. */
export function crcToBase64(value: bigint, bytes: number): string {
  const out = Buffer.alloc(bytes);
  let v = value;
  for (let i = bytes - 1; i >= 0; i--) {
    out[i] = Number(v & 0xffn);
    v >>= 8n;
  }
  return out.toString('base64');
}

export function crcFromBase64(b64: string, bytes: number): bigint {
  const buf = Buffer.from(b64, 'base64');
  if (buf.length !== bytes)
    throw new InvalidArgumentError(`expected a ${bytes}-byte CRC, got ${buf.length} bytes`);
  let v = 0n;
  for (const byte of buf) v = (v << 8n) | BigInt(byte);
  return v;
}

/** A base64-in, base64-out combine function for a registry entry. */
export function base64Combiner(f: CrcField): (a: string, b: string, lengthB: number) => string {
  const bytes = f.width / 8;
  return (a, b, lengthB) =>
    crcToBase64(combineCrc(f, crcFromBase64(a, bytes), crcFromBase64(b, bytes), lengthB), bytes);
}
