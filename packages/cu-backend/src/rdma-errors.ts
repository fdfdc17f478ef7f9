// The S3 errors CuServer answers an RDMA request with when it does not complete it by RDMA
// (docs/protocol.md "Responses"; what the reply values mean is @vgwrdma/rdma-protocol's reply.ts):
//   declined → PUT: 501 NotImplemented with x-amz-rdma-reply 501 and the reason, nothing stored
//   failed after acceptance → 500 InternalError, no reply header, a PUT stores nothing
//   a GET whose data does not fit the client's buffer → 400, before any transfer

import { S3Error } from '@vgwrdma/backend-contract';
import { type DeclineReason, declinedHeaders, declineMessage } from '@vgwrdma/rdma-protocol';

/**
 * A declined PUT / UploadPart: 501 + x-amz-rdma-reply 501 + x-amz-rdma-decline-reason, and
 * Retry-After when the decline is "busy" (the client may retry by RDMA with a fresh token).
 */
export function declinedUpload(reason: DeclineReason): S3Error {
  return S3Error.custom('NotImplemented', declineMessage(reason), { headers: declinedHeaders(reason) });
}

/** An RDMA transfer failed after the request was accepted. */
export function transferFailed(cause: unknown): S3Error {
  return new S3Error('InternalError', undefined, { cause });
}

/** The object (or range) does not fit the client's buffer: refused before any transfer. */
export function capacityTooSmall(payload: number, capacity: number): S3Error {
  return S3Error.custom(
    'InvalidArgument',
    `The requested data (${payload} bytes) is larger than the RDMA token capacity (${capacity} bytes)`,
  );
}
