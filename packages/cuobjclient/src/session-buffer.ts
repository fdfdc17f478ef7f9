// The memory a Session moves. 'host': registered host memory the gateway reads and writes as it
// is. 'cuda': CUDA device memory; over softnic the gateway cannot reach the GPU, so the bytes
// travel through a pinned host twin (what NVIDIA GDS does in compatibility mode) — device → twin
// for an upload, twin → device for a download — invisibly to the caller. By default the staging
// overlaps the transfer through the twin's progress gate (staging-overlap.ts): the gateway reads
// chunk i while chunk i+1 is staged, and landed chunks go to the device while later ones still
// arrive. Both kinds expose `staged`, the host bytes the transport serves, so Session's request
// logic is memory-agnostic.

import { performance } from 'node:perf_hooks';
import type { DeviceMemory, HostMemory } from '@vgwrdma/rdma-ffi';
import {
  type DownloadStaging,
  overlappedDownload,
  overlappedUpload,
  type UploadStaging,
} from './staging-overlap.js';

export type { DownloadStaging, UploadStaging };

/** How a 'cuda' buffer overlaps staging (open-buffer.ts settles it from the options). */
export interface OverlapSettings {
  /** staging.overlap, and the transport has progress gates (softnic). */
  readonly enabled: boolean;
  /** Bytes per overlapped chunk; 0 = the native default (8 MiB). */
  readonly chunkBytes: number;
  /** 0 = the native default (5000 ms). */
  readonly stallTimeoutMs: number;
}

export interface SessionBuffer {
  readonly kind: 'host' | 'cuda';
  /** The registration tokens are minted from. */
  readonly region: HostMemory;
  /** The host bytes the gateway reads (upload) and writes (download). */
  readonly staged: Uint8Array;
  /** The device memory of a 'cuda' buffer. */
  readonly device: DeviceMemory | undefined;
  /**
   * Before an upload's request: puts the payload (src, or the buffer's own bytes) into `staged`,
   * or starts doing so while the request runs (`overlap`, where the memory has a gate).
   */
  startUpload(src: Uint8Array | undefined, overlap: boolean): Promise<UploadStaging>;
  /** Before a download's request: what brings the landed bytes to where they belong. */
  startDownload(overlap: boolean): DownloadStaging;
  /** Deregisters and frees the memory (not the transport client). */
  close(): void;
}

function sameMemory(a: Uint8Array, b: Uint8Array): boolean {
  return a.buffer === b.buffer && a.byteOffset === b.byteOffset;
}

/** Staging that already happened (or has nothing to do). */
function settledUpload(ms: number): UploadStaging {
  return { overlapped: false, done: Promise.resolve(ms), abandon: () => undefined };
}

export class HostSessionBuffer implements SessionBuffer {
  readonly kind = 'host' as const;
  readonly device = undefined;
  constructor(readonly region: HostMemory) {}

  get staged(): Uint8Array {
    return this.region.bytes;
  }

  async startUpload(src: Uint8Array | undefined): Promise<UploadStaging> {
    const buf = this.staged;
    if (src !== undefined && !sameMemory(src, buf)) buf.set(src);
    return settledUpload(0);
  }

  startDownload(): DownloadStaging {
    return {
      overlapped: false,
      finish: async (dst) => {
        const buf = this.staged;
        if (dst !== undefined && !sameMemory(dst, buf)) dst.set(buf);
        return 0;
      },
      abandon: async () => undefined,
    };
  }

  close(): void {
    this.region.close();
  }
}

export class CudaSessionBuffer implements SessionBuffer {
  readonly kind = 'cuda' as const;
  constructor(
    readonly device: DeviceMemory,
    private readonly overlap: OverlapSettings,
  ) {}

  get region(): HostMemory {
    return this.device;
  }

  get staged(): Uint8Array {
    return this.device.stagingBytes;
  }

  /** src (host bytes) goes to the device first, so the device holds what was uploaded. */
  async startUpload(src: Uint8Array | undefined, overlap: boolean): Promise<UploadStaging> {
    if (src !== undefined) this.device.copyFromHost(src);
    if (overlap && this.overlap.enabled)
      return overlappedUpload(this.device, this.overlap.chunkBytes, this.overlap.stallTimeoutMs);
    const t0 = performance.now();
    await this.device.stageToHost();
    return settledUpload(performance.now() - t0);
  }

  startDownload(overlap: boolean): DownloadStaging {
    if (overlap && this.overlap.enabled)
      return overlappedDownload(this.device, this.overlap.chunkBytes, this.overlap.stallTimeoutMs);
    return {
      overlapped: false,
      finish: async (dst) => {
        const t0 = performance.now();
        await this.device.stageToDevice();
        const ms = performance.now() - t0;
        if (dst !== undefined) dst.set(this.staged);
        return ms;
      },
      abandon: async () => undefined,
    };
  }

  close(): void {
    this.device.close();
  }
}
