// The native CRC kernels (native-shims/src/hash/crc_fast.c: CRC64NVME by carry-less-multiply
// folding, CRC32C by SSE4.2) of a loaded shim library, in the shape backend-contract's registry takes
// (CrcKernels). Without them (no library, or VGWRDMA_CRC=wasm) the registry keeps its
// WebAssembly kernel, which gives the same values more slowly. Why native: the WebAssembly
// slice-by-8 runs at ~1 GB/s, so the default CRC64NVME of every PUT cost about as much as its MD5
// (the performance targets (bench/README.md)).
import type { CrcKernels } from '@vgwrdma/backend-contract';
import type { NativeFn, NativeLibrary } from '../shim-library.js';

interface CrcFns {
  vgw_crc64nvme_update: NativeFn;
  vgw_crc32c_update: NativeFn;
}

/** The library's CRC kernels (it has them from ABI 1.6 on: bind() refuses one that lacks them). */
export function nativeCrc(lib: NativeLibrary): CrcKernels {
  const fn = lib.bind<CrcFns>([
    'void vgw_crc64nvme_update(void *crc, const void *buf, size_t len)',
    'void vgw_crc32c_update(void *crc, const void *buf, size_t len)',
  ]);
  const crc64 = fn.vgw_crc64nvme_update;
  const crc32c = fn.vgw_crc32c_update;
  return {
    crc64nvme: (state, data) => void crc64(state, data, data.length),
    crc64nvmeOffThread: (state, data) =>
      new Promise<void>((resolve, reject) =>
        crc64.async(state, data, data.length, (err: unknown) => (err ? reject(err) : resolve())),
      ),
    crc32c: (state, data) => void crc32c(state, data, data.length),
  };
}
