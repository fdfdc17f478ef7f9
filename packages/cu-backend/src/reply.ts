// What CuServer tells the client about the RDMA leg (docs/protocol.md "Responses"):
//   done     → x-amz-rdma-reply 200/206 + the byte count under both names
//   declined → PUT: 501 NotImplemented with x-amz-rdma-reply 501, nothing stored;
//              GET: the object in the HTTP body with x-amz-rdma-reply 501
//   failed after acceptance → 500 InternalError, no reply header, a PUT stores nothing
// The byte headers equal the object (or range) size exactly; a short transfer is a failure.

import { S3Error } from '@vgwrdma/s3-backend';

export const REPLY_HEADER = 'x-amz-rdma-reply';
export const BYTES_TRANSFERRED_HEADER = 'x-amz-rdma-bytes-transferred';
/** The NooBaa-style name of the same count (docs/protocol.md: send both). */
export const BYTES_HEADER = 'x-amz-rdma-bytes';

/** Why CuServer declined to use RDMA for a request. */
export type DeclineReason =
  | 'pool-busy'
  | 'no-channel'
  | 'transport-unreachable'
  | 'size-over-limit'
  | 'shutting-down'
  | 'anonymous'
  | 'agent-busy';

const DECLINE_TEXT: Readonly<Record<DeclineReason, string>> = {
  'pool-busy': 'no RDMA buffer became free in time',
  'no-channel': 'no RDMA channel is free',
  'transport-unreachable': 'the client RDMA endpoint is unreachable from the gateway',
  'size-over-limit': 'the payload is larger than the gateway allows over RDMA',
  'shutting-down': 'the gateway is shutting down',
  anonymous: 'RDMA is not offered to anonymous (unsigned) requests',
  'agent-busy': 'the client agent already has as many RDMA transfers as the gateway allows per agent',
};

/** Headers of a transfer that moved `bytes` bytes. */
export function doneHeaders(status: 200 | 206, bytes: number): Record<string, string> {
  return {
    [REPLY_HEADER]: String(status),
    [BYTES_TRANSFERRED_HEADER]: String(bytes),
    [BYTES_HEADER]: String(bytes),
  };
}

/** The reply header of a declined request. */
export const DECLINED_HEADERS: Readonly<Record<string, string>> = Object.freeze({ [REPLY_HEADER]: '501' });

/** A declined PUT / UploadPart: 501 + x-amz-rdma-reply 501. */
export function declinedUpload(reason: DeclineReason): S3Error {
  return S3Error.custom(
    'NotImplemented',
    `RDMA declined: ${DECLINE_TEXT[reason]}; retry without x-amz-rdma-token to send the data in the body`,
    { headers: { ...DECLINED_HEADERS } },
  );
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
