// The memory a Session moves. 'host': registered host memory the gateway reads and writes as it
// is. 'cuda': CUDA device memory; over softnic the gateway cannot reach the GPU, so the bytes
// travel through a pinned host twin (what NVIDIA GDS does in compatibility mode) — device → twin
// before an upload, twin → device after a download — invisibly to the caller. Both kinds expose
// `staged`, the host bytes the transport serves, so Session's request logic is memory-agnostic.

import { performance } from 'node:perf_hooks';
import type { DeviceMemory, HostMemory } from '@vgwrdma/rdma-ffi';

export interface SessionBuffer {
  readonly kind: 'host' | 'cuda';
  /** The registration tokens are minted from. */
  readonly region: HostMemory;
  /** The host bytes the gateway reads (upload) and writes (download). */
  readonly staged: Uint8Array;
  /** The device memory of a 'cuda' buffer. */
  readonly device: DeviceMemory | undefined;
  /** Before an upload: puts the payload (src, or the buffer's own bytes) into `staged`. Returns ms spent staging. */
  prepareUpload(src: Uint8Array | undefined): Promise<number>;
  /** After a download landed in `staged`: moves it to where it belongs, and into `dst`. Returns ms spent staging. */
  finishDownload(dst: Uint8Array | undefined): Promise<number>;
  /** Deregisters and frees the memory (not the transport client). */
  close(): void;
}

function sameMemory(a: Uint8Array, b: Uint8Array): boolean {
  return a.buffer === b.buffer && a.byteOffset === b.byteOffset;
}

export class HostSessionBuffer implements SessionBuffer {
  readonly kind = 'host' as const;
  readonly device = undefined;
  constructor(readonly region: HostMemory) {}

  get staged(): Uint8Array {
    return this.region.bytes;
  }

  async prepareUpload(src: Uint8Array | undefined): Promise<number> {
    const buf = this.staged;
    if (src !== undefined && !sameMemory(src, buf)) buf.set(src);
    return 0;
  }

  async finishDownload(dst: Uint8Array | undefined): Promise<number> {
    const buf = this.staged;
    if (dst !== undefined && !sameMemory(dst, buf)) dst.set(buf);
    return 0;
  }

  close(): void {
    this.region.close();
  }
}

export class CudaSessionBuffer implements SessionBuffer {
  readonly kind = 'cuda' as const;
  constructor(readonly device: DeviceMemory) {}

  get region(): HostMemory {
    return this.device;
  }

  get staged(): Uint8Array {
    return this.device.stagingBytes;
  }

  /** src (host bytes) goes to the device first, so the device holds what was uploaded. */
  async prepareUpload(src: Uint8Array | undefined): Promise<number> {
    if (src !== undefined) this.device.copyFromHost(src);
    const t0 = performance.now();
    await this.device.stageToHost();
    return performance.now() - t0;
  }

  async finishDownload(dst: Uint8Array | undefined): Promise<number> {
    const t0 = performance.now();
    await this.device.stageToDevice();
    const ms = performance.now() - t0;
    if (dst !== undefined) dst.set(this.staged);
    return ms;
  }

  close(): void {
    this.device.close();
  }
}
