// The one error of the native loader, as a value with a stable VGW_ERR_NATIVE_* code: everything
// that loads libvgwrdma_shims (transfers, digests, CRC kernels) throws this, so a caller branches
// on `code` and an operator reads one sentence saying what is missing and where it looked. It is a
// member of the VgwrdmaError family (@vgwrdma/errors).

import { type VgwErrorCodeOf, VgwrdmaError } from '@vgwrdma/errors';

/** Why native code could not be used (docs/errors.md). */
export type NativeLoadErrorCode = VgwErrorCodeOf<'NativeLoadError'>;

/** libvgwrdma_shims (or a part of it) cannot be used; `code` says why. */
export class NativeLoadError extends VgwrdmaError<NativeLoadErrorCode> {
  override readonly name = 'NativeLoadError';
}

/** Whether `e` is a NativeLoadError (also across duplicated copies of this package). */
export function isNativeLoadError(e: unknown): e is NativeLoadError {
  return (
    e instanceof Error && e.name === 'NativeLoadError' && typeof (e as { code?: unknown }).code === 'string'
  );
}
