// The native CRC kernels (native-shims/src/hash/crc_fast.c: CRC64NVME by carry-less-multiply
// folding, CRC32C by SSE4.2), loaded through koffi from the shim library when it can be found:
// VGWRDMA_SHIM_DIR, the per-platform package @vgwrdma/native-shims-<platform>-<arch>, or the
// repository's native-shims/build/<platform>-<arch>/. Optional by design: when the library or
// koffi is missing (or VGWRDMA_CRC=wasm), the registry keeps the WebAssembly kernel, which gives
// the same values more slowly. Why native: the WebAssembly slice-by-8 runs at ~1 GB/s, so the
// default CRC64NVME of every PUT cost about as much as its MD5 (PERFORMANCE.md).
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const LIBRARY = 'libvgwrdma_shims.so';

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

type NativeFn = ((...args: unknown[]) => unknown) & {
  async(...args: [...unknown[], (err: unknown, result: unknown) => void]): void;
};
type Koffi = {
  load(path: string): { func(signature: string): NativeFn };
};

let loaded: NativeCrc | null | undefined;

/** The native kernels, or null when they are not available here. Loaded once. */
export function nativeCrc(): NativeCrc | null {
  if (loaded === undefined) loaded = load();
  return loaded;
}

function load(): NativeCrc | null {
  if (process.env.VGWRDMA_CRC === 'wasm') return null;
  if (process.platform !== 'linux') return null;
  const path = findLibrary();
  if (!path) return null;
  try {
    const req = createRequire(import.meta.url);
    const koffi = req('koffi') as Koffi;
    const lib = koffi.load(path);
    const crc64 = lib.func('void vgw_crc64nvme_update(void *crc, const void *buf, size_t len)');
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
    return null; // an older shim without the CRC exports, or no koffi: the WebAssembly kernel
  }
}

function findLibrary(): string | undefined {
  const tag = `${process.platform}-${process.arch}`;
  const env = process.env.VGWRDMA_SHIM_DIR;
  if (env) return existsSync(join(env, LIBRARY)) ? join(env, LIBRARY) : undefined;
  try {
    const req = createRequire(import.meta.url);
    const root = dirname(req.resolve(`@vgwrdma/native-shims-${tag}/package.json`));
    for (const dir of [join(root, 'lib'), root])
      if (existsSync(join(dir, LIBRARY))) return join(dir, LIBRARY);
  } catch {
    // no platform package: try the repository's build
  }
  // From src/checksums/*.ts (tests) or dist/*.js: find this package, then ../../native-shims.
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i++) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg) && readName(pkg) === '@vgwrdma/s3-backend') {
      const path = join(dir, '..', '..', 'native-shims', 'build', tag, LIBRARY);
      return existsSync(path) ? path : undefined;
    }
    dir = dirname(dir);
  }
  return undefined;
}

function readName(pkg: string): string | undefined {
  try {
    return (JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name;
  } catch {
    return undefined;
  }
}
