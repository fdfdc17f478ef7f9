// What a request carries when its payload moves by RDMA instead of the HTTP body: parsed once at
// the HTTP edge (request-headers.ts, through cu-middleware) and handed to the backend as
// RequestContext.rdma. The token in it is already the transfer's window, so CuServer, RdmaServer
// and the C shim take its fields as they are and never parse a string again.

import type { RdmaToken } from './token-types.js';

/** The only agent value accepted (NooBaa sends it). */
export type RdmaAgent = 'cuobj';

/** Which header scheme carried the descriptor. */
export type RdmaScheme = 'token' | 'legacy';

export interface RdmaDescriptor {
  /**
   * The client's window, parsed: `remoteAddr` is where the transfer starts and `length` the PUT
   * payload size or the GET destination capacity — the token's suffix override applied, or for
   * the legacy trio X-CuObj-Remote-Buf-Start / X-CuObj-Content-Length.
   */
  readonly token: RdmaToken;
  readonly scheme: RdmaScheme;
  /** x-amz-rdma-agent, when sent. */
  readonly agent?: RdmaAgent;
}
