// @vgwrdma/rdma-protocol — the cuObject RDMA wire protocol, pure (no koffi, no Node APIs): the DC v1
// token codec, GID helpers, header names, the header parser, reply values, limits and the
// descriptor type every other package takes its protocol from.

export type { RdmaAgent, RdmaDescriptor, RdmaScheme } from './descriptor.js';
export { gidToIpv4, ipv4MappedGid, softnicEndpoint } from './gid.js';
export {
  AGENT_HEADER,
  BYTES_HEADER,
  BYTES_TRANSFERRED_HEADER,
  DECLINE_REASON_HEADER,
  LEGACY_HEADERS,
  REPLY_HEADER,
  TOKEN_HEADER,
} from './header-names.js';
export { DEFAULT_MAX_SESSION_SIZE, GiB, MAX_UPLOAD_SIZE, TOKEN_CAPACITY } from './limits.js';
export {
  DECLINE_RETRY_AFTER_S,
  DECLINED_HEADERS,
  DECLINED_REPLY,
  type DeclineReason,
  declinedHeaders,
  declineMessage,
  doneHeaders,
  isRetryableDecline,
  RETRYABLE_DECLINES,
  type ReplyMeaning,
  replyMeaning,
  reportedBytes,
  SUCCESS_REPLIES,
} from './reply.js';
export {
  type HeaderLookup,
  hasRequestBody,
  parseRdmaHeaders,
  type RdmaHeaderOptions,
  type RdmaHeaderOutcome,
  type RdmaRefusal,
  type RdmaTransportKind,
} from './request-headers.js';
export {
  classifyRdmaToken,
  DC_TOKEN_LENGTH,
  DC_TOKEN_OVERRIDE_LENGTH,
  type FormatRdmaTokenOptions,
  formatRdmaToken,
  parseRdmaToken,
  tryParseRdmaToken,
  withWindow,
} from './token-codec.js';
export {
  type DcTokenFields,
  RDMA_OP_CODE,
  RDMA_TOKEN_ERROR_CODES,
  type RdmaOp,
  type RdmaToken,
  RdmaTokenError,
  type RdmaTokenErrorKind,
  type RdmaTokenKind,
  type RdmaTokenParseResult,
} from './token-types.js';
