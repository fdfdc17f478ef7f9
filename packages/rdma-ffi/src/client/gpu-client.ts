// GpuClient: the cuObjClient-shaped client (cuobjclient_wrapper.h) — the same agent and tokens
// as HostClient, plus a memory kind, so GPU memory can be registered where the cuobj provider
// is built. In builds without it (all of this project's machines) only 'system' memory works;
// CUDA kinds fail with RdmaError ENOTSUP ("CUDA memory needs the cuobj provider").

import type { MemoryKind } from './client-abi.js';
import { cuobjClientAbi } from './client-abi.js';
import { ClientBase, type HostClientOptions } from './client-base.js';
import type { HostMemory } from './host-memory.js';

export class GpuClient extends ClientBase {
  constructor(options: HostClientOptions = {}) {
    super(options, cuobjClientAbi);
  }

  /** Allocates and registers `size` bytes of memory of `kind` (default 'system'). */
  allocate(size: number, kind: MemoryKind = 'system'): HostMemory {
    return this.allocateKind(size, kind);
  }

  /** Registers caller-owned memory of `kind` (cuMemObjGetDescriptor); it must outlive the region. */
  register(address: bigint, size: number, kind: MemoryKind = 'system'): HostMemory {
    return this.registerKind(address, size, kind);
  }
}
