// What one Session transfer returns, and the small verdict helpers its request logic shares.

import { CuObjError } from './errors.js';
import { gatewayAnswer } from './judge-reply.js';
import type { RawAnswer } from './rdma-request.js';

export interface TransferResult {
  /** How the data moved: 'rdma', or 'http' after a declined request with fallback 'http'. */
  readonly via: 'rdma' | 'http';
  readonly bytes: number;
  readonly httpStatus: number;
  readonly etag: string | undefined;
  /** x-amz-rdma-reply as received (undefined when absent). */
  readonly rdmaReply: string | undefined;
  /** 'cuda' sessions: ms spent copying between device and host staging memory (part of the transfer). */
  readonly stagingMs?: number;
}

export function result(
  via: 'rdma' | 'http',
  bytes: number,
  answer: RawAnswer,
  etag: string | undefined,
  stagingMs?: number,
): TransferResult {
  return {
    via,
    bytes,
    httpStatus: answer.status,
    etag,
    rdmaReply: answer.headers['x-amz-rdma-reply'],
    ...(stagingMs === undefined ? {} : { stagingMs }),
  };
}

export function declined(op: 'PUT' | 'GET', answer: RawAnswer | undefined, cause: unknown): CuObjError {
  return new CuObjError(
    'VGW_ERR_CUOBJ_DECLINED',
    `${op}: the gateway declined RDMA (open the session with fallback: 'http' to send the data in the body)`,
    {
      gateway: gatewayAnswer(answer, cause),
      cause,
    },
  );
}

export function isServiceError(e: unknown): boolean {
  return (
    typeof (e as { $metadata?: { httpStatusCode?: unknown } } | undefined)?.$metadata?.httpStatusCode ===
    'number'
  );
}
