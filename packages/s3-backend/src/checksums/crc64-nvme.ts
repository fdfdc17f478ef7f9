// CRC64NVME (the NVMe CRC-64: reflected polynomial 0x9a6c9329ac4bc9b5, init and xorout all-ones),
// slice-by-8 over two 32-bit halves so no bigint is touched per byte.
// Why our own loop rather than @aws-sdk/crc64-nvme: the SDK's hashers only have an async
// digest(), and the registry's Hasher is synchronous. The SDK's implementation is the oracle in
// the tests (checksums.test.ts), so the two cannot drift apart unnoticed.
import type { Hasher } from './types.js';

export const CRC64NVME_POLY = 0x9a6c9329ac4bc9b5n;

const SLICES = 8;
// lo[s][i], hi[s][i]: the CRC contribution of byte value i followed by s zero bytes.
const LO: Uint32Array[] = [];
const HI: Uint32Array[] = [];

function buildTables(): void {
  const polyLo = Number(CRC64NVME_POLY & 0xffffffffn);
  const polyHi = Number(CRC64NVME_POLY >> 32n);
  const lo0 = new Uint32Array(256);
  const hi0 = new Uint32Array(256);
  for (let i = 0; i < 256; i++) {
    let lo = i;
    let hi = 0;
    for (let bit = 0; bit < 8; bit++) {
      const carry = lo & 1;
      lo = ((lo >>> 1) | ((hi & 1) << 31)) >>> 0;
      hi >>>= 1;
      if (carry) {
        lo = (lo ^ polyLo) >>> 0;
        hi = (hi ^ polyHi) >>> 0;
      }
    }
    lo0[i] = lo;
    hi0[i] = hi;
  }
  LO.push(lo0);
  HI.push(hi0);
  for (let s = 1; s < SLICES; s++) {
    const prevLo = LO[s - 1] as Uint32Array;
    const prevHi = HI[s - 1] as Uint32Array;
    const lo = new Uint32Array(256);
    const hi = new Uint32Array(256);
    for (let i = 0; i < 256; i++) {
      const pl = prevLo[i] as number;
      const ph = prevHi[i] as number;
      const idx = pl & 0xff;
      lo[i] = (((pl >>> 8) | (ph << 24)) ^ (lo0[idx] as number)) >>> 0;
      hi[i] = ((ph >>> 8) ^ (hi0[idx] as number)) >>> 0;
    }
    LO.push(lo);
    HI.push(hi);
  }
}
buildTables();

const [L0, L1, L2, L3, L4, L5, L6, L7] = LO as [
  Uint32Array,
  Uint32Array,
  Uint32Array,
  Uint32Array,
  Uint32Array,
  Uint32Array,
  Uint32Array,
  Uint32Array,
];
const [H0, H1, H2, H3, H4, H5, H6, H7] = HI as [
  Uint32Array,
  Uint32Array,
  Uint32Array,
  Uint32Array,
  Uint32Array,
  Uint32Array,
  Uint32Array,
  Uint32Array,
];

/** Raw state update: (lo, hi) are the pre-inverted register halves. */
function update(state: Uint32Array, data: Uint8Array): void {
  let lo = state[0] as number;
  let hi = state[1] as number;
  const n = data.length;
  let i = 0;
  // Index arithmetic is proven in range by the loop bounds; `as number` only tells the compiler.
  while (i + 8 <= n) {
    const a = (lo ^ (data[i] as number)) & 0xff;
    const b = ((lo >>> 8) ^ (data[i + 1] as number)) & 0xff;
    const c = ((lo >>> 16) ^ (data[i + 2] as number)) & 0xff;
    const d = ((lo >>> 24) ^ (data[i + 3] as number)) & 0xff;
    const e = (hi ^ (data[i + 4] as number)) & 0xff;
    const f = ((hi >>> 8) ^ (data[i + 5] as number)) & 0xff;
    const g = ((hi >>> 16) ^ (data[i + 6] as number)) & 0xff;
    const h = ((hi >>> 24) ^ (data[i + 7] as number)) & 0xff;
    lo =
      ((L7[a] as number) ^
        (L6[b] as number) ^
        (L5[c] as number) ^
        (L4[d] as number) ^
        (L3[e] as number) ^
        (L2[f] as number) ^
        (L1[g] as number) ^
        (L0[h] as number)) >>>
      0;
    hi =
      ((H7[a] as number) ^
        (H6[b] as number) ^
        (H5[c] as number) ^
        (H4[d] as number) ^
        (H3[e] as number) ^
        (H2[f] as number) ^
        (H1[g] as number) ^
        (H0[h] as number)) >>>
      0;
    i += 8;
  }
  for (; i < n; i++) {
    const idx = (lo ^ (data[i] as number)) & 0xff;
    lo = (((lo >>> 8) | (hi << 24)) ^ (L0[idx] as number)) >>> 0;
    hi = ((hi >>> 8) ^ (H0[idx] as number)) >>> 0;
  }
  state[0] = lo;
  state[1] = hi;
}

export class Crc64NvmeHasher implements Hasher {
  private readonly state = new Uint32Array([0xffffffff, 0xffffffff]);

  update(chunk: Uint8Array): void {
    update(this.state, chunk);
  }

  /** The CRC as a number pair is rarely wanted; S3 wants 8 big-endian bytes, base64. */
  digest(): string {
    const out = Buffer.alloc(8);
    out.writeUInt32BE(~(this.state[1] as number) >>> 0, 0);
    out.writeUInt32BE(~(this.state[0] as number) >>> 0, 4);
    return out.toString('base64');
  }
}
