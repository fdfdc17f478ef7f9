// @vgwrdma/cu-middleware — hono middleware that parses x-amz-rdma-token (or the legacy X-CuObj-*
// trio) and x-amz-rdma-agent into a typed RDMA descriptor on the request context. The parsing
// itself is @vgwrdma/rdma-protocol's `parseRdmaHeaders`; this package is the hono edge, and
// readRdmaRequest() the same reading for another middleware.

export {
  type CuEnv,
  type CuMiddlewareOptions,
  type CuVariables,
  cuMiddleware,
  readRdmaRequest,
} from './cu-middleware.js';
