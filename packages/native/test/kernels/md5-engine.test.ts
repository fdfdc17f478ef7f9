// The multi-buffer MD5 engine (md5-engine.ts over the shim's vgw_md5mb_*): used for MD5 wherever
// the CPU has AVX2 or AVX-512F; many digests in flight at once, cut at random points, equal
// node:crypto; every chunk's `done` runs once, after it was hashed; a digest disposed in flight
// settles; MD5 stays on OpenSSL unless VGWRDMA_MD5=lanes asks for the engine.
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { md5Engine } from '../../src/kernels/md5-engine.js';
import { NativeDigest, nativeDigests } from '../../src/kernels/native-digest.js';
import { loadNativeLibrary } from '../../src/shim-library.js';

const lib = loadNativeLibrary();
const engine = md5Engine(lib);
const cpuFlags = (() => {
  try {
    return readFileSync('/proc/cpuinfo', 'utf8');
  } catch {
    return '';
  }
})();
const LANES = { VGWRDMA_MD5: 'lanes' };
const simd = /\bavx512f\b/.test(cpuFlags) ? 16 : /\bavx2\b/.test(cpuFlags) ? 8 : 0;

/** Random cut points of `len` (pieces of 1 byte to 3 MiB). */
function cuts(len: number, seed: number): number[] {
  const out: number[] = [];
  let s = seed;
  for (let at = 0; at < len; ) {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    const piece = 1 + (s % (3 << 20));
    at = Math.min(len, at + piece);
    out.push(at);
  }
  return out;
}

describe('multi-buffer MD5 engine', () => {
  it('is there exactly where the CPU has a lockstep kernel, as wide as the CPU allows', () => {
    if (simd === 0) expect(engine).toBeUndefined();
    else expect(engine?.lanes).toBe(simd);
  });

  it.skipIf(!engine)('twenty digests in flight at once equal node:crypto', async () => {
    const factory = nativeDigests(lib, LANES);
    const data = randomBytes(24 << 20);
    const jobs = Array.from({ length: 20 }, (_, i) => {
      const len = (i * 1_234_567 + 17) % data.length;
      const d = factory?.('md5');
      expect(d).toBeInstanceOf(NativeDigest);
      expect((d as NativeDigest).kernel).toBe('md5-lanes');
      let settled = 0;
      let at = 0;
      const pieces = cuts(len, i + 1);
      for (const end of pieces) {
        d?.update(data.subarray(at, end), () => settled++);
        at = end;
      }
      return { len, d, pieces: pieces.length, settled: () => settled };
    });
    const digests = await Promise.all(jobs.map((j) => j.d?.digest()));
    jobs.forEach((j, i) => {
      expect(digests[i]?.toString('hex')).toBe(
        createHash('md5').update(data.subarray(0, j.len)).digest('hex'),
      );
      expect(j.settled()).toBe(j.pieces);
    });
  });

  it.skipIf(!engine)(
    'settles every chunk of a digest disposed in flight, and the next digests still work',
    async () => {
      const factory = nativeDigests(lib, LANES);
      const d = factory?.('md5');
      let settled = 0;
      for (let i = 0; i < 4; i++) d?.update(randomBytes(8 << 20), () => settled++);
      d?.dispose();
      await expect.poll(() => settled).toBe(4);
      const again = factory?.('md5');
      const data = randomBytes(5 << 20);
      again?.update(data);
      expect((await again?.digest())?.toString('hex')).toBe(createHash('md5').update(data).digest('hex'));
    },
  );

  it('MD5 stays on OpenSSL unless VGWRDMA_MD5=lanes (same value)', async () => {
    const factory = nativeDigests(lib, {});
    const data = randomBytes(3 << 20);
    const viaOpenssl = factory?.('md5');
    expect((viaOpenssl as NativeDigest).kernel).toBe('openssl');
    const viaEngine = engine ? nativeDigests(lib, LANES)?.('md5') : undefined;
    if (engine) expect((viaEngine as NativeDigest).kernel).toBe('md5-lanes');
    viaEngine?.dispose();
    viaOpenssl?.update(data);
    expect((await viaOpenssl?.digest())?.toString('hex')).toBe(createHash('md5').update(data).digest('hex'));
  });
});
