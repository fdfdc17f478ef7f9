// Errors of the buffer pool, members of the VgwrdmaError family (docs/errors.md): a caller that could not get a buffer in time
// declines the request (docs/protocol.md: 501 + x-amz-rdma-reply 501), it never waits forever.

import { type VgwErrorCodeOf, VgwrdmaError } from '@vgwrdma/errors';

/** Why `acquire()` gave no buffer. */
export type PoolErrorCode = VgwErrorCodeOf<'PoolError'>;

export class PoolError extends VgwrdmaError<PoolErrorCode> {
  override readonly name = 'PoolError';
}

/** The reason an aborted acquire rejects with: the signal's reason, or an AbortError. */
export function abortReason(signal: AbortSignal): unknown {
  if (signal.reason !== undefined) return signal.reason;
  const err = new Error('acquire aborted');
  err.name = 'AbortError';
  return err;
}
