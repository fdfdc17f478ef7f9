// @vgwrdma/rdma-ffi — koffi bindings to the vgwrdma native shims (libvgwrdma_shims):
// RdmaServer (gateway side), HostClient (client side), typed errors. The token codec and the
// rest of the wire protocol are @vgwrdma/rdma-protocol's.

// The loader's error, thrown by every constructor here when the library cannot be used.
export { NativeLoadError, type NativeLoadErrorCode } from '@vgwrdma/native';
export { type CeilingProbe, measureCeiling } from './ceiling-probes.js';
export { MEMORY_KIND_ID, type MemoryKind } from './client/client-abi.js';
export { type HostClientOptions, MAX_HOST_REGION } from './client/client-base.js';
export { DeviceAllocation } from './client/device-allocation.js';
export { DeviceMemory } from './client/device-memory.js';
export { type CudaOptions, GpuClient, type StagingOptions } from './client/gpu-client.js';
export { HostClient } from './client/host-client.js';
export { HostMemory } from './client/host-memory.js';
export { type ProgressArmOptions, ProgressGate, type ProgressMode } from './client/progress-gate.js';
export {
  checkErrno,
  errnoName,
  errnoOf,
  RdmaError,
} from './errors.js';
export { NativeMemory } from './native-memory.js';
export { PROVIDER_ID, providerName, type RdmaProvider } from './provider.js';
export { RdmaBuffer } from './server/rdma-buffer.js';
export { RdmaChannel } from './server/rdma-channel.js';
export {
  MAX_TRANSFER_PER_CALL,
  RdmaServer,
  type RdmaServerStats,
  type RdmaTransfer,
} from './server/rdma-server.js';
export {
  type RdmaServerOptions,
  VENDOR_TELEMETRY_FLAGS,
  type VendorTelemetry,
  type VendorTunables,
} from './server/server-options.js';
export { type ShimInfo, shimInfo } from './shim-info.js';
