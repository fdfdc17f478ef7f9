// A PosixBackend hashes natively without its user doing anything: opening it installs the shim's
// kernels (installNativeKernels), and a large PUT's MD5 and CRC64NVME then run on them — counted
// here by wrapping the installed native kernels, which still do the hashing — with the values
// node:crypto and the WebAssembly CRC64NVME (checked against the AWS SDK's in backend-contract) give.
import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import {
  CHECKSUMS,
  type CrcKernels,
  checksumKernelStatus,
  installChecksumKernels,
} from '@vgwrdma/backend-contract';
import { loadNativeLibrary } from '@vgwrdma/native';
import { nativeCrc, nativeDigests } from '@vgwrdma/native/kernels';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ctx, type Fixture, fixture, withBucket } from './helpers.js';

describe('native hashing in an embedded PosixBackend', () => {
  let f: Fixture;
  beforeAll(async () => {
    f = await fixture();
  });
  afterAll(() => f.cleanup());

  it('is installed by PosixBackend.open and used by a large PUT', async () => {
    expect(checksumKernelStatus()).toEqual({ crc: 'native', digest: 'off-thread' });

    const lib = loadNativeLibrary();
    const crc = nativeCrc(lib);
    const digests = nativeDigests(lib);
    const used = { crc64: 0, digests: [] as string[] };
    const counted: CrcKernels = {
      ...crc,
      crc64nvme(s, d) {
        used.crc64++;
        crc.crc64nvme(s, d);
      },
      crc64nvmeOffThread(s, d) {
        used.crc64++;
        return crc.crc64nvmeOffThread(s, d);
      },
    };
    installChecksumKernels({
      crc: counted,
      offThreadDigest(alg) {
        used.digests.push(alg);
        return digests?.(alg);
      },
    });
    try {
      const bucket = await withBucket(f);
      const data = randomBytes(5 * 1024 * 1024 + 3);
      const out = await f.backend.putObject(ctx(), {
        bucket,
        key: 'big',
        body: Readable.from([data.subarray(0, 1 << 20), data.subarray(1 << 20)]),
        contentLength: data.length,
      });
      expect(used.digests).toEqual(['md5']);
      expect(used.crc64).toBeGreaterThan(0);
      expect(out.etag).toBe(`"${createHash('md5').update(data).digest('hex')}"`);
      installChecksumKernels({}); // the WebAssembly kernel, as the oracle
      const wasm = CHECKSUMS.CRC64NVME.create();
      wasm.update(data);
      expect(out.checksums?.CRC64NVME).toBe(wasm.digest());
    } finally {
      installChecksumKernels({ crc, offThreadDigest: digests });
    }
  });
});
