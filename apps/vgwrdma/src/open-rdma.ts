// With --rdma-ip, the RDMA plugin (cu-backend's rdmaPlugin: RDMA server, buffer pool, CuServer,
// cu-middleware, PATCH /rdma-stats) from the --rdma-* flags. Its start-up failures — no shim
// library, a transport this host cannot use, bad tunables — already say what went wrong in one
// sentence; here they become StartupErrors, so the app prints just that and exits non-zero.
import { type RdmaPlugin, rdmaPlugin } from '@vgwrdma/cu-backend';
import { StartupError } from '@vgwrdma/errors';
import type { RdmaConfig } from './config.js';

export async function openRdma(config: RdmaConfig): Promise<RdmaPlugin> {
  try {
    return await rdmaPlugin(config);
  } catch (error) {
    throw new StartupError(error instanceof Error ? error.message : String(error), { cause: error });
  }
}
