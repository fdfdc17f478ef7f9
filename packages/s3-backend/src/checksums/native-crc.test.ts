// The native CRC kernels agree with the WebAssembly kernel (itself checked against the SDK's
// implementations in checksums.test.ts) on random data, lengths, alignments and splits.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { crcToBase64 } from './crc-combine.js';
import { CRC32C_POLY, CRC64NVME_POLY, createCrc64Nvme } from './crc-hashers.js';
import { CrcKernel } from './crc-kernel.js';
import { nativeCrc } from './native-crc.js';

const native = nativeCrc();

describe.skipIf(native === null)('native CRC kernels', () => {
  const wasm64 = new CrcKernel(64, CRC64NVME_POLY);
  const wasm32 = new CrcKernel(32, CRC32C_POLY);
  const viaWasm = (k: CrcKernel, parts: Uint8Array[]) =>
    crcToBase64(parts.reduce((r, p) => k.update(r, p), k.mask) ^ k.mask, k.width / 8);

  it('CRC64NVME and CRC32C equal the WebAssembly kernel, in one call and split', () => {
    const data = randomBytes(3 * 1024 * 1024 + 17);
    for (const len of [0, 1, 7, 63, 64, 127, 128, 129, 1000, 65_536, 1_048_579, data.length - 3]) {
      const view = data.subarray(3, 3 + len);
      const cut = Math.floor(len / 3);
      const parts = [view.subarray(0, cut), view.subarray(cut)];
      const s64 = new BigUint64Array(1);
      const s32 = new Uint32Array(1);
      for (const p of parts) {
        native?.crc64nvme(s64, p);
        native?.crc32c(s32, p);
      }
      expect(crcToBase64(s64[0] as bigint, 8)).toBe(viaWasm(wasm64, [view]));
      expect(crcToBase64(BigInt(s32[0] as number), 4)).toBe(viaWasm(wasm32, [view]));
    }
  });

  it('CRC64NVME off the main thread gives the same value, in order', async () => {
    const data = randomBytes(9 * 1024 * 1024 + 5);
    const sync = createCrc64Nvme();
    sync.update(data);
    const off = createCrc64Nvme();
    expect(off.updateOffThread).toBeDefined();
    const parts = [0, 1, 2, 3, 4].map((i) => data.subarray(i * 2_000_001, (i + 1) * 2_000_001));
    await Promise.all(parts.map((p) => off.updateOffThread?.(p)));
    expect(off.digest()).toBe(sync.digest());
  });

  it('CRC64NVME off-thread updates run in parallel and fold in call order, whatever order they finish in', async () => {
    const data = randomBytes(6 * 1024 * 1024 + 3);
    const sync = createCrc64Nvme();
    sync.update(data);
    const off = createCrc64Nvme();
    // a large chunk first, small ones after: the later ones finish first
    const cuts = [0, 5 * 1024 * 1024, 5 * 1024 * 1024 + 7, 5 * 1024 * 1024 + 4096, data.length];
    const pending = cuts.slice(1).map((end, i) => off.updateOffThread?.(data.subarray(cuts[i], end)));
    expect(() => off.digest()).toThrow(/before its off-thread updates finished/);
    await Promise.all(pending);
    expect(off.digest()).toBe(sync.digest());
  });
});
