// The limits an RDMA transfer obeys before any byte moves, and its deadline:
//   - PUT / UploadPart: the same 5 GiB as an HTTP body (rdma-protocol's MAX_UPLOAD_SIZE; the
//     gateway's MAX_PUT_SIZE, MAX_PART_SIZE) → 400 EntityTooLarge;
//   - the whole transfer must finish within base + size / MIN_RATE (--rdma-transfer-timeout is
//     the base, 30 s by default), else it is abandoned and its buffer and channel come back.

import { S3Error } from '@vgwrdma/backend-contract';
import { MAX_UPLOAD_SIZE } from '@vgwrdma/rdma-protocol';
/** The base of every transfer deadline unless configured. */
export const DEFAULT_TRANSFER_TIMEOUT_MS = 30_000;
/** The slowest rate a transfer may run at before its deadline (50 MB/s). */
export const MIN_TRANSFER_RATE = 50_000_000;

/** EntityTooLarge for an RDMA PUT / UploadPart larger than S3 allows; undefined when it fits. */
export function uploadTooLarge(size: number): S3Error | undefined {
  if (size <= MAX_UPLOAD_SIZE) return undefined;
  return S3Error.custom(
    'EntityTooLarge',
    `Your proposed upload (${size} bytes by RDMA) exceeds the maximum allowed object size (${MAX_UPLOAD_SIZE} bytes)`,
  );
}

/** Milliseconds a transfer of `size` bytes may take: `baseMs` + size at MIN_TRANSFER_RATE. */
export function transferDeadlineMs(size: number, baseMs = DEFAULT_TRANSFER_TIMEOUT_MS): number {
  return baseMs + Math.ceil((size / MIN_TRANSFER_RATE) * 1000);
}

/** The S3 error of a transfer abandoned at its deadline (the request fails; a PUT stores nothing). */
export function transferTimedOut(ms: number): S3Error {
  return S3Error.custom(
    'RequestTimeout',
    `The RDMA transfer did not complete within ${ms} ms (--rdma-transfer-timeout); it was abandoned`,
  );
}
