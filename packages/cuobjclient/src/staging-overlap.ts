// Staging of a 'cuda' session overlapped with its transfer, through the host twin's progress
// gate (@vgwrdma/rdma-ffi ProgressGate; the client's softnic agent enforces it on both paths):
//   upload   — arm 'upload', then device → twin chunk by chunk on a pool thread, publishing each
//              chunk, while the PUT runs: the agent answers a gateway READ only once its bytes
//              are staged. A failed staging arms 'failed' (the gateway's waiting READs fail at
//              once) and the upload reports the staging error.
//   download — arm 'download'; a 1 ms timer reads the landed word the agent raises after each
//              WRITE and copies each newly landed run of whole chunks twin → device (one short
//              pool job at a time, so no libuv thread waits on the gateway); once the reply came
//              (every WRITE preceded it) the rest is copied. On a failed request the timer stops.
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

/** The native default chunk (cuobj_overlap.c); the download pump uses the same. */
const DEFAULT_CHUNK = 8 * 2 ** 20;
/** How often the download pump looks at the landed word (Node's timer floor). */
const PUMP_MS = 1;

export function overlappedDownload(
  device: DeviceMemory,
  chunk: number,
  stallTimeoutMs: number,
): DownloadStaging {
  const gate = device.progress;
  gate.arm('download', { stallTimeoutMs });
  const step = chunk || DEFAULT_CHUNK;
  let copied = 0;
  let running: Promise<void> | undefined;
  let failure: unknown;
  // A timer, not a pool thread waiting on the word: the libuv pool stays free for everyone
  // else however long the GET takes; each copy it starts is one short pool job.
  const pump = () => {
    if (running !== undefined || failure !== undefined) return;
    const ready = Math.floor((gate.value - copied) / step) * step;
    if (ready <= 0) return;
    running = device.stageToDevice(copied, ready).then(
      () => {
        copied += ready;
        running = undefined;
      },
      (err: unknown) => {
        failure = err;
        running = undefined;
      },
    );
  };
  const timer = setInterval(pump, PUMP_MS);
  const stop = async () => {
    clearInterval(timer);
    await running;
  };
  return {
    overlapped: true,
    finish: async (dst) => {
      const t0 = performance.now();
      await stop();
      if (failure !== undefined) throw failure;
      if (copied < device.size) await device.stageToDevice(copied, device.size - copied);
      const ms = performance.now() - t0;
      if (dst !== undefined) dst.set(device.stagingBytes);
      return ms;
    },
    abandon: async () => {
      gate.arm('failed');
      await stop();
    },
  };
}
