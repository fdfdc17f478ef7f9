// Staging of a 'cuda' session overlapped with its transfer, through the host twin's progress
// gate (@vgwrdma/rdma-ffi ProgressGate; the client's softnic agent enforces it on both paths):
//   upload   — arm 'upload', then device → twin chunk by chunk on a pool thread, publishing each
//              chunk, while the PUT runs: the agent answers a gateway READ only once its bytes
//              are staged. A failed staging arms 'failed' (the gateway's waiting READs fail at
//              once) and the upload reports the staging error.
//   download — arm 'download', then a pool thread copies twin → device each chunk the agent
//              reports landed; once the reply came, publish(size) (every WRITE preceded it) and
//              the thread copies the rest. On a failed request: arm 'failed', the thread stops.
// Invariants: the gateway never reads a byte before it is staged; the device never gets a byte
// before it landed; nothing runs on the registration after finish()/abandon() resolve.

import { performance } from 'node:perf_hooks';
import type { DeviceMemory } from '@vgwrdma/rdma-ffi';

export interface UploadStaging {
  /** Whether the staging runs alongside the request. */
  readonly overlapped: boolean;
  /** Settles when staging is over: ms it took, or its error. */
  readonly done: Promise<number>;
  /** The request failed before reading everything: refuse the gateway's waiting READs. */
  abandon(): void;
}

export interface DownloadStaging {
  readonly overlapped: boolean;
  /** The reply came (every byte landed): completes the copies, fills dst; ms spent after the reply. */
  finish(dst: Uint8Array | undefined): Promise<number>;
  /** The request failed: stops the copies. */
  abandon(): Promise<void>;
}

export function overlappedUpload(device: DeviceMemory, chunk: number, stallTimeoutMs: number): UploadStaging {
  const gate = device.progress;
  gate.arm('upload', { stallTimeoutMs });
  const t0 = performance.now();
  const done = device.stageToHostOverlapped(device.size, chunk).then(() => performance.now() - t0);
  done.catch(() => undefined); // observed by the caller; never an unhandled rejection meanwhile
  return { overlapped: true, done, abandon: () => gate.arm('failed') };
}

export function overlappedDownload(
  device: DeviceMemory,
  chunk: number,
  stallTimeoutMs: number,
): DownloadStaging {
  const gate = device.progress;
  gate.arm('download', { stallTimeoutMs });
  const copies = device.stageToDeviceOverlapped(device.size, chunk);
  copies.catch(() => undefined);
  return {
    overlapped: true,
    finish: async (dst) => {
      const t0 = performance.now();
      gate.publish(device.size);
      await copies;
      const ms = performance.now() - t0;
      if (dst !== undefined) dst.set(device.stagingBytes);
      return ms;
    },
    abandon: async () => {
      gate.arm('failed');
      await copies.catch(() => undefined);
    },
  };
}
