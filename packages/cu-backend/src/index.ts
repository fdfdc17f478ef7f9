// @vgwrdma/cu-backend — CuServer, the Backend decorator that moves PutObject / UploadPart /
// GetObject payloads by RDMA when the request carries a descriptor, and delegates the rest.

export { AgentPolicy, type Ipv4Cidr, parseAgentAllowList, parseIpv4Cidr } from './agent-policy.js';
export { CuServer, type CuServerOptions, type CuServerStats } from './cu-server.js';
export { DelegatingBackend } from './delegating-backend.js';
export { type CuServerConfig, openCuServer } from './open-cu-server.js';
export { DEFAULT_TRANSFER_TIMEOUT_MS, MIN_TRANSFER_RATE, transferDeadlineMs } from './transfer-limits.js';
