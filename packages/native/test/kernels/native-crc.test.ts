// The native CRC kernels agree with backend-contract's WebAssembly kernel (itself checked against the
// SDK's implementations in backend-contract's checksums.test.ts) on random data, lengths, alignments
// and splits; installed, they are what the registry's CRC64NVME hasher runs on.
import { randomBytes } from 'node:crypto';
import { CHECKSUMS, installChecksumKernels } from '@vgwrdma/backend-contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nativeCrc } from '../../src/kernels/native-crc.js';
import { loadNativeLibrary } from '../../src/shim-library.js';

const native = nativeCrc(loadNativeLibrary());
const crcToBase64 = (crc: bigint, bytes: number) =>
  Buffer.from(crc.toString(16).padStart(bytes * 2, '0'), 'hex').toString('base64');
/** The registry's hasher with nothing installed: the WebAssembly kernel. */
function viaWasm(alg: 'CRC64NVME' | 'CRC32C', data: Uint8Array): string {
  installChecksumKernels({});
  const h = CHECKSUMS[alg].create();
  h.update(data);
  return h.digest();
}
const createCrc64Nvme = () => CHECKSUMS.CRC64NVME.create();

describe('native CRC kernels', () => {
  beforeAll(() => installChecksumKernels({ crc: native }));
  afterAll(() => installChecksumKernels({}));

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
      expect(crcToBase64(s64[0] as bigint, 8)).toBe(viaWasm('CRC64NVME', view));
      expect(crcToBase64(BigInt(s32[0] as number), 4)).toBe(viaWasm('CRC32C', view));
    }
  });

  it('CRC64NVME off the main thread gives the same value, in order', async () => {
    installChecksumKernels({ crc: native });
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
    installChecksumKernels({ crc: native });
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
