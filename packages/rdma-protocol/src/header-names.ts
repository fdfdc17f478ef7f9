// The HTTP header names of the protocol (docs/protocol.md "Headers"), lower case as Node and
// hono hand them over. Request side: the token, the agent, the legacy trio; answer side: the reply
// value and the byte count under both of its names.

/** The DC v1 descriptor (81 characters, or the suffixed override form). */
export const TOKEN_HEADER = 'x-amz-rdma-token';
/** Names the client agent; only 'cuobj' is accepted. */
export const AGENT_HEADER = 'x-amz-rdma-agent';
/** The legacy trio: descriptor, size and remote start in decimal. Always sent together. */
export const LEGACY_HEADERS = {
  descriptor: 'x-cuobj-rdma-descr',
  contentLength: 'x-cuobj-content-length',
  remoteStart: 'x-cuobj-remote-buf-start',
} as const;

/** What the gateway did with the RDMA leg (reply.ts says what each value means). */
export const REPLY_HEADER = 'x-amz-rdma-reply';
/** Bytes the RDMA leg moved. */
export const BYTES_TRANSFERRED_HEADER = 'x-amz-rdma-bytes-transferred';
/** The NooBaa-style name of the same count (docs/protocol.md: a gateway sends both). */
export const BYTES_HEADER = 'x-amz-rdma-bytes';
/** Why a request was declined (a DeclineReason), on every decline. */
export const DECLINE_REASON_HEADER = 'x-amz-rdma-decline-reason';
