// A buffer registered with an RdmaServer: the local side of every transfer. Either allocated
// by the shim (page-aligned, zeroed, freed on close) or caller-owned native memory that must
// outlive the registration. Deregistration fails with EBUSY while a transfer uses it.

import { InvalidArgumentError } from '@vgwrdma/errors';
import { errnoOf, RdmaError } from '../errors.js';
import type { Ptr, ShimLibrary } from '../native/shim-library.js';
import { NativeMemory } from '../native-memory.js';

export class RdmaBuffer extends NativeMemory implements Disposable {
  /** @internal */
  constructor(
    private readonly lib: ShimLibrary,
    private readonly srv: Ptr,
    /** @internal cuobj_rdma_buffer_t* */
    readonly handle: Ptr,
    address: bigint,
    size: number,
    private readonly owned: boolean,
    private readonly onClose: (b: RdmaBuffer) => void,
  ) {
    super(address, size);
  }

  /** Deregisters the buffer and, when the shim allocated it, frees it. Idempotent. */
  close(): void {
    if (this.closed) return;
    const ret = this.lib.fn.cuobj_server_deregister_buffer(this.srv, this.handle);
    if (ret < 0) throw new RdmaError('deregisterBuffer', ret, this.lib.lastError().message);
    if (this.owned) this.lib.fn.cuobj_server_free_host_buffer(this.srv, this.address);
    this.markReleased();
    this.onClose(this);
  }

  [Symbol.dispose](): void {
    this.close();
  }
}

/** @internal Allocates (or adopts) and registers memory on a server. */
export function registerServerBuffer(
  lib: ShimLibrary,
  srv: Ptr,
  size: number,
  external: bigint | undefined,
  onClose: (b: RdmaBuffer) => void,
): RdmaBuffer {
  if (!Number.isSafeInteger(size) || size <= 0)
    throw new InvalidArgumentError(`buffer size must be a positive integer, got ${size}`);
  const owned = external === undefined;
  const address = owned ? lib.fn.cuobj_server_alloc_host_buffer(srv, size) : external;
  if (address === 0n) {
    const { errno, message } = lib.lastError();
    throw new RdmaError('allocHostBuffer', errno || errnoOf('ENOMEM'), message);
  }
  const handle = lib.fn.cuobj_server_register_buffer(srv, address, size);
  if (handle === 0n) {
    const { errno, message } = lib.lastError();
    if (owned) lib.fn.cuobj_server_free_host_buffer(srv, address);
    throw new RdmaError('registerBuffer', errno || errnoOf('EINVAL'), message);
  }
  return new RdmaBuffer(lib, srv, handle, address, size, owned, onClose);
}
