// @vgwrdma/cu-backend — CuServer, the Backend decorator that moves PutObject / UploadPart /
// GetObject payloads by RDMA when the request carries a descriptor, and delegates the rest.

export { AgentPolicy, type Ipv4Cidr, parseAgentAllowList, parseIpv4Cidr } from './agent-policy.js';
export { CuServer, type CuServerOptions, type CuServerStats } from './cu-server.js';
export { type CuServerConfig, openCuServer } from './open-cu-server.js';
export {
  BYTES_HEADER,
  BYTES_TRANSFERRED_HEADER,
  type DeclineReason,
  REPLY_HEADER,
} from './reply.js';
export {
  DEFAULT_TRANSFER_TIMEOUT_MS,
  MAX_UPLOAD_SIZE,
  MIN_TRANSFER_RATE,
  transferDeadlineMs,
} from './transfer-limits.js';
