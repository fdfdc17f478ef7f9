// The shape of one measured run (mode × size), as --json prints it and the text/plot reports
// read it. GB/s are decimal (1e9 bytes/s); latencies in milliseconds.

import type { LatencySummary } from './stats.js';
import type { Mode } from './transports.js';

export interface Iteration {
  readonly latencyMs: number;
  readonly gbps: number;
  /** CPU ms this client process used in the iteration's window (every thread). */
  readonly clientCpuMs?: number;
  /** -server-pid: CPU ms the server process used in the same window (utime + stime, 10 ms ticks). */
  readonly serverCpuMs?: number;
  /** GET only: "OK", or "MISMATCH put=<crc32> get=<crc32>" (8 hex digits) for the first worker that differed. */
  readonly checksum?: string;
}

export interface DirectionResult {
  /** Aggregate: all bytes moved in this direction / the summed wall time of its iterations. */
  readonly gbps: number;
  /** Over every single transfer (iterations × concurrency). */
  readonly latencyMs: LatencySummary;
  /** Wall time and GB/s of each iteration (all workers together). */
  readonly iterations: readonly Iteration[];
  /** --memory cuda: device ↔ host staging time per transfer (included in the latencies). */
  readonly stagingMs?: LatencySummary;
  /** CPU ms of this client process summed over the iterations (their wall time is the sum of latencyMs). */
  readonly clientCpuMs?: number;
  /** -server-pid: CPU ms of the server process summed over the same windows. */
  readonly serverCpuMs?: number;
}

export interface PairRatios {
  /** RDMA GB/s over std-s3 GB/s, per alternating pair, and their median. */
  readonly put?: { readonly median: number; readonly pairs: readonly number[] };
  readonly get?: { readonly median: number; readonly pairs: readonly number[] };
}

/** A managed direction: parts per transfer, retries over all its transfers, the last ETag. */
export interface ManagedDirection {
  readonly parts: number;
  readonly retries: number;
  /** The object's ETag (`"<md5>-<parts>"` after a multipart upload). */
  readonly etag?: string;
}

/** Managed transfers (-part-size / -part-concurrency, or -size above one session's cap). */
export interface ManagedRun {
  readonly partSize: number;
  readonly partConcurrency: number;
  readonly put?: ManagedDirection;
  readonly get?: ManagedDirection;
}

export interface RunResult {
  readonly mode: Mode;
  /** How the data moved on the client side: 'softnic' / 'verbs' / 'cuobj' for rdma, 'http' for std-s3 (softnic figures are software, not RDMA hardware). */
  readonly transport: 'softnic' | 'verbs' | 'cuobj' | 'http';
  /** Where the client's data lives: 'host', or 'cuda' (GPU memory; --memory cuda, rdma mode only). */
  readonly memory: 'host' | 'cuda';
  /** --memory cuda: the GPU, e.g. "NVIDIA H200 (device 0 of 1), runtime 13000, ...". */
  readonly device?: string;
  readonly sizeBytes: number;
  readonly iterations: number;
  readonly concurrency: number;
  readonly endpoint: string;
  readonly bucket: string;
  readonly put?: DirectionResult;
  readonly get?: DirectionResult;
  /** Managed transfers only: parts, retries, ETag. */
  readonly managed?: ManagedRun;
  /** Every round trip's read-back CRC32 matched what was written. */
  readonly verified: boolean;
  /** What failed verification, when something did. */
  readonly failures?: readonly string[];
  /** Only on the RDMA result of --compare. */
  readonly vsStdS3?: PairRatios;
}
