// Judging the gateway's answer to an RDMA request (docs/protocol.md "Client rules"). Success needs
// x-amz-rdma-reply present and 200 (PUT) or 200/206 (GET), and the byte count equal to the
// session size. A decline (501) is returned as such so the session can fall back when allowed;
// everything else becomes a CuObjError that quotes what the gateway answered. What each reply
// value means is @vgwrdma/rdma-protocol's `replyMeaning`; this module decides what to do with it.

import {
  BYTES_HEADER,
  BYTES_TRANSFERRED_HEADER,
  type RdmaOp,
  REPLY_HEADER,
  replyMeaning,
  reportedBytes,
  SUCCESS_REPLIES,
} from '@vgwrdma/rdma-protocol';
import { CuObjError, type GatewayAnswer } from './errors.js';
import type { RawAnswer } from './rdma-request.js';

/** 'rdma': done by RDMA; 'declined': reply 501; 'no-reply': the gateway did not answer for RDMA. */
type ReplyVerdict = 'rdma' | 'declined' | 'no-reply';

/** The GatewayAnswer of a raw answer, plus the S3 error code/message when the SDK parsed one. */
export function gatewayAnswer(raw: RawAnswer | undefined, sdkError?: unknown): GatewayAnswer {
  const h = raw?.headers ?? {};
  const e = sdkError as
    | { name?: unknown; message?: unknown; $metadata?: { httpStatusCode?: number } }
    | undefined;
  const status = raw?.status ?? e?.$metadata?.httpStatusCode;
  const bytes = reportedBytes(h);
  return {
    ...(status === undefined ? {} : { httpStatus: status }),
    ...(h[REPLY_HEADER] === undefined ? {} : { rdmaReply: h[REPLY_HEADER] }),
    ...(bytes === undefined ? {} : { bytes }),
    ...(sdkError !== undefined && typeof e?.name === 'string' ? { errorCode: e.name } : {}),
    ...(sdkError !== undefined && typeof e?.message === 'string' && e.message !== ''
      ? { errorMessage: e.message }
      : {}),
    ...(h['x-amz-request-id'] === undefined ? {} : { requestId: h['x-amz-request-id'] }),
  };
}

/**
 * The verdict on an answer with a 2xx HTTP status. Throws VGW_ERR_CUOBJ_BAD_REPLY for a reply value
 * this operation cannot succeed with, VGW_ERR_CUOBJ_BYTES_MISMATCH when the counts are not `size`.
 */
export function judgeSuccess(op: RdmaOp, raw: RawAnswer, size: number): ReplyVerdict {
  const meaning = replyMeaning(op, raw.headers[REPLY_HEADER]);
  if (meaning === 'absent') return 'no-reply';
  if (meaning === 'declined' && op === 'get') return 'declined'; // the object came in the body
  if (meaning !== 'done') {
    throw new CuObjError(
      'VGW_ERR_CUOBJ_BAD_REPLY',
      `${op.toUpperCase()}: x-amz-rdma-reply must be ${SUCCESS_REPLIES[op].join(' or ')}`,
      { gateway: gatewayAnswer(raw) },
    );
  }
  checkBytes(op, raw, size);
  return 'rdma';
}

/** The verdict on an answer the SDK turned into an error: 'declined' for reply 501, else throws. */
export function judgeFailure(op: RdmaOp, raw: RawAnswer | undefined, sdkError: unknown): 'declined' {
  const reply = raw?.headers[REPLY_HEADER];
  if (replyMeaning(op, reply) === 'declined') return 'declined';
  const gateway = gatewayAnswer(raw, sdkError);
  if (reply !== undefined) {
    throw new CuObjError(
      'VGW_ERR_CUOBJ_BAD_REPLY',
      `${op.toUpperCase()} failed with x-amz-rdma-reply ${reply}`,
      {
        gateway,
        cause: sdkError,
      },
    );
  }
  throw new CuObjError('VGW_ERR_CUOBJ_GATEWAY_ERROR', `${op.toUpperCase()} failed`, {
    gateway,
    cause: sdkError,
  });
}

/** Both byte headers (when present) must be the decimal `size`; at least one must be present. */
function checkBytes(op: RdmaOp, raw: RawAnswer, size: number): void {
  const values = [raw.headers[BYTES_TRANSFERRED_HEADER], raw.headers[BYTES_HEADER]].filter(
    (v): v is string => v !== undefined,
  );
  const expected = String(size);
  if (values.length === 0 || values.some((v) => v.trim() !== expected)) {
    throw new CuObjError(
      'VGW_ERR_CUOBJ_BYTES_MISMATCH',
      values.length === 0
        ? `${op.toUpperCase()}: the gateway sent no ${BYTES_TRANSFERRED_HEADER} header (expected ${expected})`
        : `${op.toUpperCase()}: RDMA moved ${values.join(' / ')} bytes, expected ${expected}`,
      { gateway: gatewayAnswer(raw) },
    );
  }
}
