// @vgwrdma/cu-backend — CuServer, the Backend decorator that moves PutObject / UploadPart /
// GetObject payloads by RDMA when the request carries a descriptor, and delegates the rest;
// rdmaPlugin(), the whole RDMA data path as one gateway plugin that installs itself.

export { AgentPolicy, type Ipv4Cidr, parseAgentAllowList, parseIpv4Cidr } from './agent-policy.js';
export { CuServer, type CuServerOptions, type CuServerStats } from './cu-server.js';
export {
  type CuServerConfig,
  openCuServer,
  openRdmaTransport,
  type RdmaTransport,
} from './open-cu-server.js';
export {
  decide as decideRdmaGrant,
  type RdmaEdgeEnv,
  type RdmaEdgeMiddleware,
  rdmaEdge,
} from './rdma-edge.js';
export { grantRdma, type RdmaGrant, type RdmaRequestRecord, rdmaRecordOf } from './rdma-grant.js';
export { RDMA_PLUGIN_NAME, type RdmaObservation, rdmaObservation } from './rdma-observation.js';
export { type RdmaPlugin, type RdmaPluginStack, rdmaPlugin } from './rdma-plugin.js';
export {
  defaultPoolBufCount,
  parseRdmaPluginOptions,
  RDMA_PLUGIN_OPTIONS,
  type RdmaPluginOptions,
} from './rdma-plugin-options.js';
export { type RdmaStatsReport, rdmaStatsReport } from './rdma-stats.js';
export type {
  RdmaTransferEvent,
  TransferDirection,
  TransferListener,
  TransferOutcome,
} from './transfer-events.js';
export { DEFAULT_TRANSFER_TIMEOUT_MS, MIN_TRANSFER_RATE, transferDeadlineMs } from './transfer-limits.js';
