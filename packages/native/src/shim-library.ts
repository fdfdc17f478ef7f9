// Opens libvgwrdma_shims: resolves it (library-resolver.ts), loads it with koffi, checks its ABI
// (abi.ts) and logs one line the first time each file is loaded (library-status.ts). One loaded
// instance per resolved path, shared by everything native in the process — transfers
// (@vgwrdma/rdma-ffi), digests and CRC kernels (kernels.ts). Pointers that functions bound here
// return come back as BigInt, 0n for NULL.
import { abiString, checkAbi } from './abi.js';
import { NativeLoadError } from './errors.js';
import { type Koffi, koffi } from './koffi.js';
import { resolveShimLibraries, type ShimSource } from './library-resolver.js';
import { describeLibrary, logLoaded } from './library-status.js';

type LibraryHandle = Koffi.LibraryHandle;

/** Base name of the one shim library (libvgwrdma_shims.so). */
export const SHIM_LIBRARY = 'vgwrdma_shims';

/** A loaded, ABI-checked shim library. */
export interface NativeLibrary {
  readonly path: string;
  readonly source: ShimSource;
  /** major << 16 | minor, as the library reports it. */
  readonly abiVersion: number;
  /** 'major.minor'. */
  readonly abi: string;
  /** The koffi handle, for callers that declare functions themselves. */
  readonly handle: LibraryHandle;
  /**
   * Declares C prototypes (one per string) and answers them by function name, typed as `T`. A
   * prototype the library lacks is VGW_ERR_NATIVE_ABI_MISMATCH: the library is older than this ABI.
   */
  bind<T>(prototypes: readonly string[]): T;
  /** The calling thread's last native error: negative errno and message. */
  lastError(): { errno: number; message: string };
}

export interface LoadNativeOptions {
  /** Directory holding libvgwrdma_shims.so; overrides VGWRDMA_SHIM_DIR and the defaults. */
  readonly shimDir?: string | undefined;
  /** Where VGWRDMA_SHIM_DIR is read (default process.env). */
  readonly env?: Readonly<Record<string, string | undefined>> | undefined;
}

/** A function bound from the library; `async` runs it on the libuv pool. */
export type NativeFn = ((...args: unknown[]) => unknown) & {
  async(...args: [...unknown[], (err: unknown, result: unknown) => void]): void;
};

const loaded = new Map<string, NativeLibrary>();

/** Loads (once per path) and ABI-checks the shim library. Throws NativeLoadError. */
export function loadNativeLibrary(options: LoadNativeOptions = {}): NativeLibrary {
  const where = resolveShimLibraries({
    libraries: [SHIM_LIBRARY],
    shimDir: options.shimDir,
    ...(options.env === undefined ? {} : { env: options.env }),
  });
  const path = where.libraries[SHIM_LIBRARY] as string;
  const cached = loaded.get(path);
  if (cached) return cached;
  let handle: LibraryHandle;
  try {
    handle = koffi.load(path);
  } catch (cause) {
    throw new NativeLoadError(
      'VGW_ERR_NATIVE_LOAD_FAILED',
      `@vgwrdma/native: cannot load ${path}: ${String(cause)}`,
      {
        cause,
      },
    );
  }
  let version: number;
  try {
    version = (handle.func('uint32_t vgw_shim_abi_version(void)')() as number) >>> 0;
  } catch (cause) {
    throw new NativeLoadError(
      'VGW_ERR_NATIVE_ABI_MISMATCH',
      `@vgwrdma/native: ${path} is no vgwrdma shim library`,
      {
        cause,
      },
    );
  }
  checkAbi(path, version);
  const lib = library(path, where.source, version, handle);
  loaded.set(path, lib);
  logLoaded(describeLibrary(lib));
  return lib;
}

function library(path: string, source: ShimSource, abiVersion: number, handle: LibraryHandle): NativeLibrary {
  const lib: NativeLibrary = {
    path,
    source,
    abiVersion,
    abi: abiString(abiVersion),
    handle,
    bind<T>(prototypes: readonly string[]): T {
      const fns: Record<string, unknown> = {};
      for (const proto of prototypes) {
        let f: ReturnType<LibraryHandle['func']>;
        try {
          f = handle.func(proto);
        } catch (cause) {
          throw new NativeLoadError(
            'VGW_ERR_NATIVE_ABI_MISMATCH',
            `@vgwrdma/native: ${path} lacks a symbol: ${String(cause)}`,
            { cause },
          );
        }
        // koffi returns NULL as `null`; callers test pointers against 0n, so normalise.
        fns[f.info.name] = proto.startsWith('void *')
          ? Object.assign((...args: unknown[]) => (f(...args) as bigint | null) ?? 0n, { async: f.async })
          : f;
      }
      return fns as T;
    },
    lastError() {
      const msg = Buffer.alloc(512);
      const errno = lastErrorFn(msg, msg.length);
      const end = msg.indexOf(0);
      return { errno, message: msg.toString('utf8', 0, end < 0 ? msg.length : end) };
    },
  };
  const { vgw_shim_last_error: lastErrorFn } = lib.bind<{
    vgw_shim_last_error(msg: Buffer, cap: number): number;
  }>(['int vgw_shim_last_error(void *msg, size_t cap)']);
  return lib;
}
