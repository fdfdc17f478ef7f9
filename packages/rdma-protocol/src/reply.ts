// What x-amz-rdma-reply says about the RDMA leg (docs/protocol.md "Responses"), for both ends:
// the gateway writes these values, the client reads them back with `replyMeaning`.
//   done     → x-amz-rdma-reply 200 (PUT, GET) or 206 (ranged GET) + the byte count under both names
//   declined → 501: PUT answers 501 NotImplemented and stores nothing; GET sends the object in the
//              HTTP body instead
//   failed after acceptance → 500 InternalError with no reply header (a PUT stores nothing)
// The byte headers equal the object (or range) size exactly; a short transfer is a failure.

import {
  BYTES_HEADER,
  BYTES_TRANSFERRED_HEADER,
  DECLINE_REASON_HEADER,
  REPLY_HEADER,
} from './header-names.js';
import type { RdmaOp } from './token-types.js';

/** The reply value of a declined request. */
export const DECLINED_REPLY = '501';

/**
 * Reply values that mean "done by RDMA", per operation (a PUT is never partial). This gateway
 * sends 200 / 206; the original vgwrdma gateway may send 204, so a client accepts it too.
 */
export const SUCCESS_REPLIES: Readonly<Record<RdmaOp, readonly string[]>> = {
  put: ['200', '204'],
  get: ['200', '204', '206'],
};

/**
 * What a reply value means for an operation:
 * - `absent`: no reply header — the gateway did not take the RDMA leg (refusal, or no RDMA at all);
 * - `done`: the bytes moved by RDMA;
 * - `declined`: 501, the client may retry (PUT) or already has the body (GET) over HTTP;
 * - `invalid`: a value this operation cannot succeed with.
 */
export type ReplyMeaning = 'absent' | 'done' | 'declined' | 'invalid';

export function replyMeaning(op: RdmaOp, value: string | undefined): ReplyMeaning {
  if (value === undefined) return 'absent';
  if (value === DECLINED_REPLY) return 'declined';
  return SUCCESS_REPLIES[op].includes(value) ? 'done' : 'invalid';
}

/** Why a gateway declined to use RDMA for a request. */
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

/** The sentence a declined PUT's error message carries. */
export function declineMessage(reason: DeclineReason): string {
  return `RDMA declined: ${DECLINE_TEXT[reason]}; retry without x-amz-rdma-token to send the data in the body`;
}

/** Headers of a transfer that moved `bytes` bytes. */
export function doneHeaders(status: 200 | 206, bytes: number): Record<string, string> {
  return {
    [REPLY_HEADER]: String(status),
    [BYTES_TRANSFERRED_HEADER]: String(bytes),
    [BYTES_HEADER]: String(bytes),
  };
}

/** The reply header of a declined request. */
export const DECLINED_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  [REPLY_HEADER]: DECLINED_REPLY,
});

/**
 * Declines that say "busy now", not "never": the same request by RDMA, with a fresh token, may
 * be admitted a moment later (a managed transfer retries its part instead of failing or falling
 * back). The others (anonymous, size over the limit, unreachable agent, shutting down) would be
 * declined again.
 */
export const RETRYABLE_DECLINES: ReadonlySet<DeclineReason> = new Set<DeclineReason>([
  'pool-busy',
  'no-channel',
  'agent-busy',
]);

/** Seconds a busy decline's Retry-After suggests. */
export const DECLINE_RETRY_AFTER_S = 1;

/**
 * The headers of a decline for `reason`: x-amz-rdma-reply 501, x-amz-rdma-decline-reason, and a
 * Retry-After for a busy one (RETRYABLE_DECLINES).
 */
export function declinedHeaders(reason: DeclineReason): Record<string, string> {
  return {
    ...DECLINED_HEADERS,
    [DECLINE_REASON_HEADER]: reason,
    ...(RETRYABLE_DECLINES.has(reason) ? { 'retry-after': String(DECLINE_RETRY_AFTER_S) } : {}),
  };
}

/** Whether a decline's reason header (x-amz-rdma-decline-reason) says retrying by RDMA may work. */
export function isRetryableDecline(reason: string | undefined): boolean {
  return reason !== undefined && RETRYABLE_DECLINES.has(reason as DeclineReason);
}

/** The byte count an answer reports: x-amz-rdma-bytes-transferred, else x-amz-rdma-bytes. */
export function reportedBytes(headers: Readonly<Record<string, string | undefined>>): string | undefined {
  return headers[BYTES_TRANSFERRED_HEADER] ?? headers[BYTES_HEADER];
}
