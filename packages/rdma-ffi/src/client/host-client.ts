// HostClient: the client side of softnic/verbs transfers for host memory
// (rdma_host_client_wrapper.h). On softnic it runs an agent thread that serves the gateway's
// READ/WRITE requests on registered regions only (rkey + bounds checked, DC key checked at
// connect); the tokens it mints carry the agent's IPv4-mapped address (GID) and port (DCTN).
// Used by cuobjclient's sessions.

import { hostClientAbi } from './client-abi.js';
import { ClientBase, type HostClientOptions } from './client-base.js';
import type { HostMemory } from './host-memory.js';

export class HostClient extends ClientBase {
  /** Starts the client (and, on softnic, its agent). Throws NativeLoadError (@vgwrdma/native) or RdmaError (e.g. EADDRINUSE). */
  constructor(options: HostClientOptions = {}) {
    super(options, hostClientAbi);
  }

  /** Allocates `size` bytes of page-aligned zeroed native memory and registers it. */
  allocate(size: number): HostMemory {
    return this.allocateKind(size, 'system');
  }

  /** Registers caller-owned native memory, which must stay valid until the region is closed. */
  register(address: bigint, size: number): HostMemory {
    return this.registerKind(address, size, 'system');
  }
}
