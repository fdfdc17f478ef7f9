// Size limits of a session (docs/protocol.md "Size limits"): the token's size field is a u32 and the
// transports register at most 4 GiB − 64 KiB per region, so that is the hard ceiling; sessions
// default to a 1 GiB cap, as vgwrdma and its client do, and callers may raise it.

import { CuObjError } from './errors.js';

const GiB = 2 ** 30;
/** Largest region one token can describe: 4 GiB − 64 KiB. */
export const TOKEN_CAPACITY = 2 ** 32 - 2 ** 16;
/** Default `maxSize` of a session. */
export const DEFAULT_MAX_SESSION_SIZE = GiB;

/** Checks `size` against `maxSize` (itself ≤ TOKEN_CAPACITY); throws VGW_ERR_CUOBJ_INVALID_OPTION. */
export function checkSessionSize(size: number, maxSize: number = DEFAULT_MAX_SESSION_SIZE): void {
  if (!Number.isSafeInteger(maxSize) || maxSize <= 0 || maxSize > TOKEN_CAPACITY) {
    throw new CuObjError(
      'VGW_ERR_CUOBJ_INVALID_OPTION',
      `maxSize must be an integer in 1..${TOKEN_CAPACITY} (4 GiB - 64 KiB, the token capacity), got ${maxSize}`,
    );
  }
  if (!Number.isSafeInteger(size) || size <= 0) {
    throw new CuObjError(
      'VGW_ERR_CUOBJ_INVALID_OPTION',
      `size must be a positive integer number of bytes, got ${size}`,
    );
  }
  if (size > maxSize) {
    throw new CuObjError(
      'VGW_ERR_CUOBJ_INVALID_OPTION',
      `size ${size} exceeds the session limit ${maxSize}` +
        (maxSize < TOKEN_CAPACITY
          ? ` (raise it with maxSize, up to ${TOKEN_CAPACITY})`
          : ' (the token capacity)'),
    );
  }
}
