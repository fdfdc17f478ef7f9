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

export interface RequestContext {
  readonly account: Account;
  /** The id echoed as x-amz-request-id and in error bodies. */
  readonly requestId: string;
  /** Aborted when the client goes away or the server shuts down. */
  readonly signal: AbortSignal;
  /**
   * Present when the payload moves by RDMA: set by the RDMA plugin's middleware after
   * authentication (with its trust decision beside it), consumed by CuServer.
   */
  readonly rdma?: RdmaDescriptor;
}
