// GpuClient: the cuObjClient-shaped client (cuobjclient_wrapper.h) — the same agent and tokens
// as HostClient, plus a memory kind. 'system' memory is host memory. 'cuda-device' memory is
// CUDA device memory (ABI 1.3): with softnic it is staged through a pinned host twin (GDS
// compatibility style), so its regions are DeviceMemory with stageToHost / stageToDevice. The
// CUDA runtime is loaded at run time; without one (or without a device) CUDA calls fail with
// RdmaError ENODEV naming what was missing. 'cuda-managed' is refused (ENOTSUP).

import { InvalidArgumentError } from '@vgwrdma/errors';
import { errnoOf, RdmaError } from '../errors.js';
import { cuobjClientAbi, MEMORY_KIND_ID, type MemoryKind } from './client-abi.js';
import { ClientBase, type HostClientOptions, type RegionInit } from './client-base.js';
import { DeviceAllocation } from './device-allocation.js';
import { DeviceMemory } from './device-memory.js';
import type { HostMemory } from './host-memory.js';

export interface CudaOptions {
  /** CUDA runtime library to dlopen; default $VGWRDMA_CUDA_LIB, else libcudart.so / .so.13 / .so.12. */
  readonly library?: string;
  /** Device ordinal for allocations; default 0. */
  readonly device?: number;
}

export interface StagingOptions {
  /** Bytes per staging copy; 0 (default) splits each copy evenly over the streams. ≥ 64 KiB otherwise. */
  readonly chunkBytes?: number;
  /** CUDA streams the chunks are spread over, 1..8; default 1 (one copy: on an H200 splitting measured no faster). */
  readonly streams?: number;
}

const DESCRIBE_CAP = 512;

export class GpuClient extends ClientBase {
  private readonly allocations = new Set<DeviceAllocation>();

  constructor(options: HostClientOptions = {}) {
    super(options, cuobjClientAbi);
  }

  /** Allocates and registers `size` bytes of memory of `kind` (default 'system'). */
  allocate(size: number, kind: 'cuda-device'): DeviceMemory;
  allocate(size: number, kind?: MemoryKind): HostMemory;
  allocate(size: number, kind: MemoryKind = 'system'): HostMemory {
    return this.allocateKind(size, kind);
  }

  /**
   * Allocates `size` bytes of CUDA device memory WITHOUT registering it (no token can name it):
   * any size the device has room for. Freed by its close() or this client's close().
   */
  allocateDevice(size: number): DeviceAllocation {
    if (!Number.isSafeInteger(size) || size <= 0)
      throw new InvalidArgumentError(`allocateDevice: bad size ${size}`);
    const address = this.lib.fn.cuobj_client_alloc(
      this.handle,
      size,
      MEMORY_KIND_ID['cuda-device'],
    ) as bigint;
    if (!address) {
      const { errno, message } = this.lib.lastError();
      throw new RdmaError('allocateDevice', errno || errnoOf('ENOMEM'), message);
    }
    const a = new DeviceAllocation(this.lib, this.handle, address, size, (x) => this.allocations.delete(x));
    this.allocations.add(a);
    return a;
  }

  /** Frees the device allocations still open, then closes the client. */
  override close(): void {
    for (const a of [...this.allocations]) {
      try {
        a.close();
      } catch {
        // freeing what is left is best effort; the client's own close releases the context
      }
    }
    super.close();
  }

  /** Registers caller-owned memory of `kind` (cuMemObjGetDescriptor); it must outlive the region. */
  register(address: bigint, size: number, kind: 'cuda-device'): DeviceMemory;
  register(address: bigint, size: number, kind?: MemoryKind): HostMemory;
  register(address: bigint, size: number, kind: MemoryKind = 'system'): HostMemory {
    return this.registerKind(address, size, kind);
  }

  /**
   * Loads the CUDA runtime and selects the device for later 'cuda-device' allocations (the first
   * CUDA allocation does this with the defaults). Throws RdmaError ENODEV "no CUDA runtime: ..."
   * or "no CUDA device: ...".
   */
  configureCuda(options: CudaOptions = {}): void {
    const r = this.lib.fn.cuobj_client_cuda_configure(
      this.handle,
      options.library ?? null,
      options.device ?? 0,
    );
    if (r < 0) throw new RdmaError('configureCuda', r, this.lib.lastError().message);
  }

  /** Staging of registrations made from now on (see StagingOptions). */
  setStaging(options: StagingOptions): void {
    const r = this.lib.fn.cuobj_client_cuda_set_staging(
      this.handle,
      options.chunkBytes ?? 0,
      options.streams ?? 1,
    );
    if (r < 0) throw new RdmaError('setStaging', r, this.lib.lastError().message);
  }

  /** "<device name> (device D of N), runtime R, driver V, <library>". Loads the runtime if needed. */
  describeCuda(): string {
    const out = Buffer.alloc(DESCRIBE_CAP);
    const n = this.lib.fn.cuobj_client_cuda_describe(this.handle, out, DESCRIBE_CAP);
    if (n < 0) throw new RdmaError('describeCuda', n, this.lib.lastError().message);
    return out.toString('utf8', 0, n);
  }

  /** @internal */
  protected override wrapRegion(r: RegionInit, onClose: (m: HostMemory) => void): HostMemory {
    if (r.kind !== 'cuda-device') return super.wrapRegion(r, onClose);
    return new DeviceMemory(r.lib, r.abi, r.client, r.handle, r.address, r.size, r.kind, r.owned, onClose);
  }
}
