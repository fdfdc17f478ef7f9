// installNativeKernels(): the one call that gives backend-contract's checksum registry the shim's CRC
// kernels and off-thread MD5/SHA-256. Backends that hash (PosixBackend, CuServer) make it when
// they are created, so a backend embedded in someone else's program hashes natively without its
// user knowing; an app makes it first, with its logger, so the start line goes to its log.
// Idempotent: the first call decides, later ones answer the same status.
//
// Failure rules, the same as for transfers: an explicit choice (shimDir, VGWRDMA_SHIM_DIR) that
// lacks the library, a library of another ABI, or one that does not load is an error (thrown);
// only when no library exists here at all does hashing stay in JavaScript, with a warning.
// VGWRDMA_CRC=wasm and VGWRDMA_DIGEST=inline turn one family off on purpose (no warning).
import {
  type ChecksumKernelStatus,
  type ChecksumKernels,
  checksumKernelStatus,
  installChecksumKernels,
} from '@vgwrdma/backend-contract';
import { isNativeLoadError, type NativeLoadErrorCode } from '../errors.js';
import { SHIM_DIR_ENV } from '../library-resolver.js';
import { describeLibrary, type NativeLibraryStatus } from '../library-status.js';
import { type NativeLogger, nativeLogger, setNativeLogger } from '../logger.js';
import { loadNativeLibrary, type NativeLibrary } from '../shim-library.js';
import { nativeCrc } from './native-crc.js';
import { nativeDigests } from './native-digest.js';

export interface InstallNativeKernelsOptions {
  /** Where the start line and warnings go (default: silent, warnings as process warnings). */
  readonly logger?: NativeLogger | undefined;
  /** Directory holding libvgwrdma_shims.so; overrides VGWRDMA_SHIM_DIR and the defaults. */
  readonly shimDir?: string | undefined;
  /** Where VGWRDMA_SHIM_DIR, VGWRDMA_CRC and VGWRDMA_DIGEST are read (default process.env). */
  readonly env?: Readonly<Record<string, string | undefined>> | undefined;
}

export interface NativeKernelsStatus extends ChecksumKernelStatus {
  /** The library the kernels come from; undefined when none exists here (JavaScript only). */
  readonly library: NativeLibraryStatus | undefined;
}

/** Load failures that mean "no native code here", not "the wrong native code". */
const ABSENT: readonly NativeLoadErrorCode[] = [
  'VGW_ERR_NATIVE_LIBRARY_NOT_FOUND',
  'VGW_ERR_NATIVE_UNSUPPORTED_PLATFORM',
];

let status: NativeKernelsStatus | undefined;

/** Installs the native kernels into backend-contract (once) and says what hashing runs on. */
export function installNativeKernels(options: InstallNativeKernelsOptions = {}): NativeKernelsStatus {
  if (options.logger) setNativeLogger(options.logger);
  if (status) return status;
  const env = options.env ?? process.env;
  const explicit = options.shimDir !== undefined || Boolean(env[SHIM_DIR_ENV]);
  const lib = openOrAbsent(() => loadNativeLibrary({ shimDir: options.shimDir, env }), explicit);
  if (!lib) {
    installChecksumKernels({});
    const none: NativeKernelsStatus = { ...checksumKernelStatus(), library: undefined };
    status = none;
    return none;
  }
  installChecksumKernels(nativeKernelsFor(lib, env));
  const active: NativeKernelsStatus = { ...checksumKernelStatus(), library: describeLibrary(lib) };
  status = active;
  return active;
}

/**
 * The kernels of `lib` that `env` leaves on (VGWRDMA_CRC=wasm, VGWRDMA_DIGEST=inline turn one
 * family off); warns when digests are wanted but the library found no OpenSSL to run them on.
 */
export function nativeKernelsFor(
  lib: NativeLibrary,
  env: Readonly<Record<string, string | undefined>>,
): ChecksumKernels {
  const crc = env.VGWRDMA_CRC === 'wasm' ? undefined : nativeCrc(lib);
  if (env.VGWRDMA_DIGEST === 'inline') return { crc };
  const offThreadDigest = nativeDigests(lib);
  if (!offThreadDigest) {
    nativeLogger().warn(
      { path: lib.path },
      'native digests unavailable (no OpenSSL found): MD5 and SHA-256 run in JavaScript on the main thread',
    );
  }
  return { crc, offThreadDigest };
}

/**
 * The library `load` answers, or undefined (with a warning) when none exists here at all. Every
 * other failure, and any failure of an explicit choice, is thrown: the wrong binary, or one that
 * was asked for and is missing, must not turn into silently slower hashing.
 */
export function openOrAbsent(load: () => NativeLibrary, explicit: boolean): NativeLibrary | undefined {
  try {
    return load();
  } catch (error) {
    if (explicit || !isNativeLoadError(error) || !ABSENT.includes(error.code)) throw error;
    nativeLogger().warn(
      { code: error.code, reason: error.message },
      'native library not found: CRCs run on WebAssembly and MD5/SHA-256 in JavaScript on the main thread',
    );
    return undefined;
  }
}
