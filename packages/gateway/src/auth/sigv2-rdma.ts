// RDMA under SigV2 is refused outright. SigV2 signs x-amz-rdma-token (an x-amz-* header) but not
// the legacy X-CuObj-* trio, which redirects the object's bytes just as the token does, and it
// signs no payload hash that CuServer could check the RDMA bytes against. Rather than a partial
// rule, a SigV2 request that carries any RDMA header gets InvalidRequest (docs/security.md).
import { authErrors } from './messages.js';
import type { RequestHeaders } from './types.js';

const RDMA_HEADER = /^(?:x-amz-rdma-|x-cuobj-)/;

export function refuseRdmaUnderV2(headers: RequestHeaders): void {
  for (const name of Object.keys(headers)) {
    if (headers[name] !== undefined && RDMA_HEADER.test(name)) throw authErrors.v2Rdma();
  }
}
