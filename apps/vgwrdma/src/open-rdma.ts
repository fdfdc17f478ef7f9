// With --rdma-ip, the RDMA plugin (cu-backend's rdmaPlugin: RDMA server, buffer pool, the edge
// middleware after authentication, CuServer around the backend, PATCH /rdma-stats) from the
// --rdma-* flags, opened here rather than inside createGateway so that its start-up failures —
// no shim library, a transport this host cannot use, bad tunables — which already say what went
// wrong in one sentence, become StartupErrors: the app prints just that and exits non-zero.
import { type RdmaPlugin, rdmaPlugin } from '@vgwrdma/cu-backend';
import { StartupError } from '@vgwrdma/errors';
import type { RdmaConfig } from './config.js';

export async function openRdma(config: RdmaConfig): Promise<RdmaPlugin> {
  try {
    const rdma = rdmaPlugin(config);
    rdma.open();
    return rdma;
  } catch (error) {
    throw new StartupError(error instanceof Error ? error.message : String(error), { cause: error });
  }
}
