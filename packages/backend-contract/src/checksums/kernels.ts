// The seam through which faster hashing enters this package, which stays pure (no koffi, no
// native loading): a loader (@vgwrdma/native/kernels: installNativeKernels()) installs CRC kernels
// and an off-thread MD5/SHA-256 here once at start, and the registry's hashers and streamDigest()
// use them from then on. Until something is installed, CRCs run on the WebAssembly kernel and
// digests inline on node:crypto: the same values, on the main thread.

/** Native CRC kernels: each updates a running, finished CRC kept in `state[0]`. */
export interface CrcKernels {
  /** state[0] = CRC64NVME of (what it covered) || data. */
  crc64nvme(state: BigUint64Array, data: Uint8Array): void;
  /** crc64nvme on another thread; `state` and `data` must stay alive until it settles. */
  crc64nvmeOffThread(state: BigUint64Array, data: Uint8Array): Promise<void>;
  /** state[0] = CRC32C of (what it covered) || data. */
  crc32c(state: Uint32Array, data: Uint8Array): void;
}

export type OffThreadAlgorithm = 'md5' | 'sha256';

/** An incremental MD5 / SHA-256 whose updates run off the main thread, in call order. */
export interface OffThreadDigest {
  /**
   * Queues `chunk` (which must stay unchanged until `done` runs: the digest keeps a reference, not
   * a copy). `done` runs once native code no longer reads it — hashed, or dropped by dispose().
   */
  update(chunk: Uint8Array, done?: () => void): void;
  /** Bytes queued or being hashed. */
  readonly pendingBytes: number;
  /** Resolves once at most `limit` bytes are pending (backpressure for a producer). */
  drained(limit?: number): Promise<void>;
  /** Waits for every queued update, then ends the digest (binary value). Once only. */
  digest(): Promise<Buffer>;
  /** Drops what is queued and frees the native context once the running call (if any) returns. */
  dispose(): void;
}

/** What a loader installs; a part left out keeps this package's own implementation. */
export interface ChecksumKernels {
  readonly crc?: CrcKernels | undefined;
  /** A fresh off-thread digest, or undefined when one cannot be made now (then: inline). */
  readonly offThreadDigest?: ((algorithm: OffThreadAlgorithm) => OffThreadDigest | undefined) | undefined;
}

/** Which implementation each family runs on now. */
export interface ChecksumKernelStatus {
  readonly crc: 'native' | 'wasm';
  readonly digest: 'off-thread' | 'inline';
}

let installed: ChecksumKernels = {};

/** Replaces the installed kernels (`{}` goes back to WebAssembly and inline digests). */
export function installChecksumKernels(kernels: ChecksumKernels): void {
  installed = { crc: kernels.crc, offThreadDigest: kernels.offThreadDigest };
}

export function checksumKernels(): ChecksumKernels {
  return installed;
}

export function checksumKernelStatus(): ChecksumKernelStatus {
  return {
    crc: installed.crc ? 'native' : 'wasm',
    digest: installed.offThreadDigest ? 'off-thread' : 'inline',
  };
}

/** Whether digests can run off the main thread here. */
export function offThreadDigestAvailable(): boolean {
  return installed.offThreadDigest !== undefined;
}

/** A fresh off-thread digest, or undefined when only inline hashing is available. */
export function offThreadDigest(algorithm: OffThreadAlgorithm): OffThreadDigest | undefined {
  return installed.offThreadDigest?.(algorithm);
}
