// Wraps the backend in CuServer when RDMA is on (--rdma-ip): CuServer then owns the RDMA server
// and the buffer pool (its shutdown() closes them). The transport's start-up failures (no shim
// library, provider not built here, bad tunables) become operator messages.
import { openCuServer } from '@vgwrdma/cu-backend';
import type { Backend } from '@vgwrdma/s3-backend';
import type { RdmaConfig } from './config.js';
import { StartupError } from './open-backend.js';

export function wrapWithRdma(config: RdmaConfig, backend: Backend): Backend {
  try {
    return openCuServer(config, backend);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new StartupError(
      `cannot start RDMA (${config.transport} on ${config.ip}, ${config.poolBufCount} x ${config.poolBufSize}-byte buffers): ${why}`,
      { cause: error },
    );
  }
}
