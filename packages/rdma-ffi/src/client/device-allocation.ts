// Plain CUDA device memory from a GpuClient (cudaMalloc through the shim's CUDA context), with no
// registration: any size the device has room for (a registration is capped at 4 GiB − 64 KiB).
// For sources and destinations that are moved part by part through other, registered memory
// (cuobjclient's TransferManager), and for filling and checking them. close() frees it.

import { InvalidArgumentError } from '@vgwrdma/errors';
import { errnoOf, RdmaError } from '../errors.js';
import type { Ptr, ShimLibrary } from '../native/shim-library.js';

const HOST_TO_DEVICE = 1;
const DEVICE_TO_HOST = 2;

export class DeviceAllocation implements Disposable {
  private freed = false;

  /** @internal GpuClient.allocateDevice makes these. */
  constructor(
    private readonly lib: ShimLibrary,
    private readonly client: Ptr,
    /** The device pointer (not CPU-addressable). */
    readonly devicePtr: bigint,
    readonly size: number,
    private readonly onClose: (a: DeviceAllocation) => void,
  ) {}

  /** For cuobjclient: `{ memory: 'cuda', devicePtr, size }` describes this allocation. */
  get memory(): 'cuda' {
    return 'cuda';
  }

  get closed(): boolean {
    return this.freed;
  }

  /** Copies `src` to device memory at `offset` (cudaMemcpy, blocking). */
  copyFromHost(src: Uint8Array, offset = 0): void {
    this.copy('copyFromHost', src, offset, HOST_TO_DEVICE);
  }

  /** Copies device memory at `offset` into `dst` (cudaMemcpy, blocking). */
  copyToHost(dst: Uint8Array, offset = 0): void {
    this.copy('copyToHost', dst, offset, DEVICE_TO_HOST);
  }

  /** Sets [offset, offset+size) to `value` (cudaMemset, blocking). */
  fill(value: number, offset = 0, size = this.size - offset): void {
    this.window('fill', offset, size);
    const r = this.lib.fn.cuobj_client_cuda_memset(
      this.client,
      this.devicePtr + BigInt(offset),
      value & 0xff,
      size,
    );
    if (r < 0) throw new RdmaError('fill', r, this.lib.lastError().message);
  }

  /** Frees the memory (cudaFree). Idempotent. */
  close(): void {
    if (this.freed) return;
    this.freed = true;
    this.onClose(this);
    const r = this.lib.fn.cuobj_client_free(this.client, this.devicePtr);
    if (r < 0) throw new RdmaError('free', r, this.lib.lastError().message);
  }

  [Symbol.dispose](): void {
    this.close();
  }

  private window(what: string, offset: number, size: number): void {
    if (this.freed) throw new RdmaError(what, errnoOf('EBADF'), 'device memory is freed');
    if (
      !Number.isSafeInteger(offset) ||
      !Number.isSafeInteger(size) ||
      offset < 0 ||
      size <= 0 ||
      offset + size > this.size
    )
      throw new InvalidArgumentError(
        `${what}: [${offset}, +${size}) is outside the ${this.size}-byte allocation`,
      );
  }

  private copy(what: string, host: Uint8Array, offset: number, dir: number): void {
    this.window(what, offset, host.byteLength);
    const dev = this.devicePtr + BigInt(offset);
    const [dst, src] = dir === HOST_TO_DEVICE ? [dev, host] : [host, dev];
    const r = this.lib.fn.cuobj_client_cuda_memcpy(this.client, dst, src, host.byteLength, dir);
    if (r < 0) throw new RdmaError(what, r, this.lib.lastError().message);
  }
}
