// A session's size against its limit (docs/protocol.md "Size limits"; the numbers are
// @vgwrdma/rdma-protocol's): at most the token capacity (4 GiB − 64 KiB), 1 GiB unless raised.

import { DEFAULT_MAX_SESSION_SIZE, TOKEN_CAPACITY } from '@vgwrdma/rdma-protocol';
import { CuObjError } from './errors.js';

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
