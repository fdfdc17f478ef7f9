// @vgwrdma/native: the one loader of native code. It finds libvgwrdma_shims (VGWRDMA_SHIM_DIR →
// @vgwrdma/native-shims-<platform>-<arch> → its own build dir (`npx @vgwrdma/native build`) → the
// repository's native-shims/build), checks its ABI,
// logs one start line, and opens libc and declares its calls that Node lacks (typed, in sys/: no
// other package declares a libc function). Transfers
// (@vgwrdma/rdma-ffi) bind their functions on the library this returns; native hashing for
// backend-contract is the `@vgwrdma/native/kernels` subpath.
export { abiString, checkAbi, EXPECTED_ABI } from './abi.js';
export { isNativeLoadError, NativeLoadError, type NativeLoadErrorCode } from './errors.js';
export { claimKoffi, KOFFI_CLAIM, type Koffi, type KoffiClaim, koffi, koffiClaim } from './koffi.js';
export { lastErrno, libc } from './libc.js';
export {
  defaultRepoBuildRoot,
  libraryFileName,
  type ResolveShimOptions,
  resolveShimLibraries,
  SHIM_DIR_ENV,
  type ShimLocation,
  type ShimSource,
  SUPPORTED_OS,
} from './library-resolver.js';
export { describeLibrary, type NativeKernelSupport, type NativeLibraryStatus } from './library-status.js';
export { NATIVE_WARNING_CODE, type NativeLogger, nativeLogger, setNativeLogger } from './logger.js';
export {
  BUILD_COMMAND,
  currentPlatform,
  detectLibc,
  type Libc,
  type Platform,
  PREBUILT_PACKAGES,
  platformTag,
  SUPPORTED_PLATFORMS,
} from './platform.js';
export {
  type LoadNativeOptions,
  loadNativeLibrary,
  type NativeFn,
  type NativeLibrary,
  SHIM_LIBRARY,
} from './shim-library.js';
export {
  AT_FDCWD,
  type CopyFileRangeCall,
  copyFileRangeCall,
  type FallocateFn,
  type InlineReadCalls,
  inlineReadCalls,
  type MemCopyFn,
  memCopyCall,
  preallocateCall,
  punchHoleCall,
  RENAME_EXCHANGE,
  type Renameat2Fn,
  renameat2Call,
  type StatxFn,
  statxCall,
  type XattrCalls,
  xattrCalls,
} from './sys/index.js';
