// Wraps the backend in CuServer when RDMA is on (--rdma-ip): CuServer then owns the RDMA server
// and the buffer pool (its shutdown() closes them). The transport's start-up failures (no shim
// library, a transport this host cannot use, bad tunables) become operator messages.
import { openCuServer } from '@vgwrdma/cu-backend';
import type { Backend } from '@vgwrdma/s3-backend';
import type { RdmaConfig } from './config.js';
import { StartupError } from './open-backend.js';

/** rdma-ffi's code for a transport this host cannot use (cuobj without NVIDIA's library). */
const PROVIDER_UNAVAILABLE = 'VGW_ERR_RDMA_PROVIDER_UNAVAILABLE';

function isProviderUnavailable(error: unknown): error is Error {
  return error instanceof Error && (error as { code?: unknown }).code === PROVIDER_UNAVAILABLE;
}

export function wrapWithRdma(config: RdmaConfig, backend: Backend): Backend {
  try {
    return openCuServer(config, backend);
  } catch (error) {
    // The native side already says it in one sentence naming the missing library: print just that.
    if (isProviderUnavailable(error)) throw new StartupError(error.message, { cause: error });
    const why = error instanceof Error ? error.message : String(error);
    throw new StartupError(
      `cannot start RDMA (${config.transport} on ${config.ip}, ${config.poolBufCount} x ${config.poolBufSize}-byte buffers): ${why}`,
      { cause: error },
    );
  }
}
