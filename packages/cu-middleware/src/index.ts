// @vgwrdma/cu-middleware — hono middleware that parses x-amz-rdma-token (or the legacy X-CuObj-*
// trio) and x-amz-rdma-agent into a typed RDMA descriptor on the request context.

export { type CuEnv, type CuMiddlewareOptions, type CuVariables, cuMiddleware } from './cu-middleware.js';
export {
  AGENT_HEADER,
  type CuDescriptor,
  type HeaderLookup,
  hasRequestBody,
  LEGACY_HEADERS,
  parseRdmaHeaders,
  type RdmaAgent,
  type RdmaHeaderOptions,
  type RdmaHeaderOutcome,
  TOKEN_HEADER,
} from './rdma-headers.js';
