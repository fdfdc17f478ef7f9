// The native CRC kernels (native-shims/src/hash/crc_fast.c: CRC64NVME by carry-less-multiply
// folding, CRC32C by SSE4.2), from the shim library when it loads (shim-library.ts). Optional by
// design: when the library or koffi is missing (or VGWRDMA_CRC=wasm), the registry keeps the
// WebAssembly kernel, which gives the same values more slowly. Why native: the WebAssembly
// slice-by-8 runs at ~1 GB/s, so the default CRC64NVME of every PUT cost about as much as its MD5
// (the performance targets (bench/README.md)).
import { type NativeFn, shimLibrary } from './shim-library.js';

export interface NativeCrc {
  /** state[0] = CRC64NVME of (what it covered) || data. */
  crc64nvme(state: BigUint64Array, data: Uint8Array): void;
  /** crc64nvme on a libuv pool thread; `state` and `data` must stay alive until it settles. */
  crc64nvmeOffThread(state: BigUint64Array, data: Uint8Array): Promise<void>;
  /** state[0] = CRC32C of (what it covered) || data. */
  crc32c(state: Uint32Array, data: Uint8Array): void;
  /** Whether the CPU paths (PCLMULQDQ, SSE4.2) are in use. */
  readonly accelerated: boolean;
}

let loaded: NativeCrc | null | undefined;

/** The native kernels, or null when they are not available here. Loaded once. */
export function nativeCrc(): NativeCrc | null {
  if (loaded === undefined) loaded = load();
  return loaded;
}

function load(): NativeCrc | null {
  if (process.env.VGWRDMA_CRC === 'wasm') return null;
  const lib = shimLibrary();
  if (!lib) return null;
  try {
    const crc64: NativeFn = lib.func('void vgw_crc64nvme_update(void *crc, const void *buf, size_t len)');
    const crc32c = lib.func('void vgw_crc32c_update(void *crc, const void *buf, size_t len)');
    const accelerated = lib.func('int vgw_crc_accelerated(void)')() === 1;
    return {
      crc64nvme: (state, data) => void crc64(state, data, data.length),
      crc64nvmeOffThread: (state, data) =>
        new Promise<void>((resolve, reject) =>
          crc64.async(state, data, data.length, (err: unknown) => (err ? reject(err) : resolve())),
        ),
      crc32c: (state, data) => void crc32c(state, data, data.length),
      accelerated,
    };
  } catch {
    return null; // an older shim without the CRC exports: the WebAssembly kernel
  }
}
