// The signing rule rdmaPlugin brings to a gateway (cu-backend's rdma-signing.ts): the legacy
// X-CuObj-* RDMA trio must be signed like any x-amz-* header. The gateway's own tests cannot
// depend on cu-backend, so their gateways install this stand-in, which declares only the prefix.
import type { GatewayPlugin } from '../../src/plugins/index.js';

export const X_CUOBJ_SIGNING: GatewayPlugin = { name: 'x-cuobj-signing', signedHeaderPrefixes: ['x-cuobj-'] };
