// A registered region of a HostClient or GpuClient: memory the client's agent (softnic) or NIC
// serves to the gateway, plus the token minting that names [offset, offset+size) of it.
// `allocate()`d regions are shim-owned memory shown to JS with koffi.view; `register()`ed ones
// are caller-owned native memory that must outlive the registration. CUDA device memory is not
// CPU-addressable, so such a region has no `bytes`.

import { parseRdmaToken, RDMA_OP_CODE, type RdmaOp } from '@vgwrdma/rdma-protocol';
import { errnoOf, RdmaError } from '../errors.js';
import type { Ptr, ShimLibrary } from '../native/shim-library.js';
import { NativeMemory } from '../native-memory.js';
import type { ClientAbi, MemoryKind } from './client-abi.js';
import { ProgressGate } from './progress-gate.js';

const TOKEN_CAP = 128; // > CUOBJ_TOKEN_MAX_LEN + NUL

export class HostMemory extends NativeMemory implements Disposable {
  private readonly tokenOut = Buffer.alloc(TOKEN_CAP);
  private gate: ProgressGate | undefined;
  /** Remote key of the registration (field 3 of its tokens). */
  readonly rkey: number;

  /** @internal */
  constructor(
    /** @internal */
    protected readonly lib: ShimLibrary,
    private readonly abi: ClientAbi,
    /** @internal the native client handle */
    protected readonly client: Ptr,
    /** @internal the registration handle (rdma_host_mr_t* / cuobj_client_mr_t*) */
    readonly handle: Ptr,
    address: bigint,
    size: number,
    /** What kind of memory this is. */
    readonly kind: MemoryKind,
    /** @internal whether the memory was allocated by the client (freed by close()) */
    readonly owned: boolean,
    private readonly onClose: (m: HostMemory) => void,
  ) {
    super(address, size);
    this.rkey = abi.rkey(handle) ?? parseRdmaToken(this.token(0, 1, 'get')).rkey;
  }

  override get bytes(): Uint8Array {
    if (this.kind === 'cuda-device')
      throw new RdmaError('bytes', errnoOf('EFAULT'), 'CUDA device memory is not CPU-addressable');
    return super.bytes;
  }

  /** The registration's progress gate (ABI 1.9, softnic): overlap filling it with the transfer. */
  get progress(): ProgressGate {
    if (this.closed) throw new RdmaError('progress', errnoOf('EBADF'), 'memory is closed');
    this.gate ??= new ProgressGate(this.lib, this.abi, this.client, this.handle);
    return this.gate;
  }

  /**
   * Mints a canonical DC v1 token for [offset, offset+size) of this region. `op` 'get': size is
   * the capacity the gateway may write; 'put': the payload it will read. Mint one per request.
   */
  token(offset: number, size: number, op: RdmaOp): string {
    if (this.closed) throw new RdmaError('token', errnoOf('EBADF'), 'memory is closed');
    const n = this.abi.token(
      this.client,
      this.handle,
      offset,
      size,
      RDMA_OP_CODE[op],
      this.tokenOut,
      TOKEN_CAP,
    );
    if (n < 0) throw new RdmaError('token', n, this.lib.lastError().message);
    return this.tokenOut.toString('latin1', 0, n);
  }

  /**
   * Deregisters (the agent stops serving it; waits for a gateway request using it, bounded by
   * the io timeout) and frees shim-allocated memory. Idempotent.
   */
  close(): void {
    if (this.closed) return;
    const ret = this.abi.deregister(this.client, this.handle);
    if (ret < 0) throw new RdmaError('deregister', ret, this.lib.lastError().message);
    this.markReleased();
    this.onClose(this);
    if (this.owned) {
      const f = this.abi.free(this.client, this.address);
      if (f < 0) throw new RdmaError('free', f, this.lib.lastError().message);
    }
  }

  [Symbol.dispose](): void {
    this.close();
  }
}
