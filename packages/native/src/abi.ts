// The ABI contract with libvgwrdma_shims (vgw_shim_common.h): the library reports
// major << 16 | minor; this package refuses another major or an older minor, and any symbol of
// this ABI that the library lacks. One check, so transfers and digests cannot disagree.
import { NativeLoadError } from './errors.js';

/** The ABI this package was written for: major must match, minor must be this or later. */
export const EXPECTED_ABI = { major: 1, minor: 10 } as const;

/** 'major.minor' of a packed version. */
export function abiString(version: number): string {
  return `${version >>> 16}.${version & 0xffff}`;
}

/** Throws VGW_ERR_NATIVE_ABI_MISMATCH unless `version` satisfies EXPECTED_ABI. */
export function checkAbi(path: string, version: number): void {
  const major = version >>> 16;
  const minor = version & 0xffff;
  if (major === EXPECTED_ABI.major && minor >= EXPECTED_ABI.minor) return;
  throw new NativeLoadError(
    'VGW_ERR_NATIVE_ABI_MISMATCH',
    `@vgwrdma/native: ${path} has ABI ${major}.${minor}, this package needs ` +
      `${EXPECTED_ABI.major}.${EXPECTED_ABI.minor} or a later minor; rebuild native-shims (npm run build)`,
  );
}
