// The typed request context every Backend method receives, instead of string-keyed values.

import type { RdmaDescriptor } from '@vgwrdma/rdma-protocol';

export type AccountRole = 'admin' | 'user' | 'userplus';

export interface Account {
  /** The access key id the request was signed with ('' for anonymous requests). */
  readonly access: string;
  readonly role: AccountRole;
  readonly userID?: number;
  readonly groupID?: number;
  readonly projectID?: number;
  /** Shown as DisplayName in ACLs and listings; the access key when absent. */
  readonly displayName?: string;
  /** What ACL grants by e-mail address (emailAddress="...") resolve against. */
  readonly email?: string;
}

export const ANONYMOUS: Account = Object.freeze({ access: '', role: 'user' });

/**
 * What a request carries when its payload moves by RDMA instead of the HTTP body: the protocol's
 * own type (@vgwrdma/rdma-protocol), re-exported so backends need no second import.
 */
export type { RdmaDescriptor } from '@vgwrdma/rdma-protocol';

/**
 * What the HTTP edge knows about who sent a request and what its signature pins; CuServer's
 * trust rules read it (docs/protocol.md "trust rules"). A context without it is treated as anonymous.
 */
export interface RequestOrigin {
  /** The request carried no signature (served as the anonymous account). */
  readonly anonymous: boolean;
  /** The HTTP peer's address as the socket reports it ('127.0.0.1', '::ffff:10.0.0.5', ...). */
  readonly peerAddress?: string;
  /** Lower-case hex SHA-256 the signature pins for the payload (x-amz-content-sha256 when a hash). */
  readonly payloadSha256?: string;
}

export interface RequestContext {
  readonly account: Account;
  /** The id echoed as x-amz-request-id and in error bodies. */
  readonly requestId: string;
  /** Aborted when the client goes away or the server shuts down. */
  readonly signal: AbortSignal;
  /** Present when the payload moves by RDMA (set by cu-middleware, consumed by CuServer). */
  readonly rdma?: RdmaDescriptor;
  /** Who sent it and what the signature pins (set by the gateway). */
  readonly origin?: RequestOrigin;
}
