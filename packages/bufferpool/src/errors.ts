// Errors of the buffer pool as values with codes: a caller that could not get a buffer in time
// declines the request (docs/protocol.md: 501 + x-amz-rdma-reply 501), it never waits forever.

/** Why `acquire()` gave no buffer. */
export type PoolErrorCode = 'POOL_TIMEOUT' | 'POOL_CLOSED' | 'POOL_TOO_SMALL';

export class PoolError extends Error {
  override readonly name = 'PoolError';
  constructor(
    readonly code: PoolErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** The reason an aborted acquire rejects with: the signal's reason, or an AbortError. */
export function abortReason(signal: AbortSignal): unknown {
  if (signal.reason !== undefined) return signal.reason;
  const err = new Error('acquire aborted');
  err.name = 'AbortError';
  return err;
}
