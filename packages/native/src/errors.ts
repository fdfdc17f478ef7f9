// The one error of the native loader, as a value with a stable VGW_ERR_NATIVE_* code: everything
// that loads libvgwrdma_shims (transfers, digests, CRC kernels) throws this, so a caller branches
// on `code` and an operator reads one sentence saying what is missing and where it looked.

/** Why native code could not be used. */
export type NativeLoadErrorCode =
  /** No shim build exists for this platform-arch (softnic needs Linux). */
  | 'VGW_ERR_NATIVE_UNSUPPORTED_PLATFORM'
  /** The library is not where an explicit choice said, or nowhere the loader looks. */
  | 'VGW_ERR_NATIVE_LIBRARY_NOT_FOUND'
  /** The file exists but the dynamic loader refused it. */
  | 'VGW_ERR_NATIVE_LOAD_FAILED'
  /** The library reports another ABI major, an older minor, or lacks a symbol of this ABI. */
  | 'VGW_ERR_NATIVE_ABI_MISMATCH'
  /** The library loaded, but a transport provider it was asked for cannot run here. */
  | 'VGW_ERR_NATIVE_PROVIDER_UNAVAILABLE';

/** libvgwrdma_shims (or a part of it) cannot be used; `code` says why. */
export class NativeLoadError extends Error {
  override readonly name = 'NativeLoadError';
  constructor(
    readonly code: NativeLoadErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** Whether `e` is a NativeLoadError (also across duplicated copies of this package). */
export function isNativeLoadError(e: unknown): e is NativeLoadError {
  return (
    e instanceof Error && e.name === 'NativeLoadError' && typeof (e as { code?: unknown }).code === 'string'
  );
}
