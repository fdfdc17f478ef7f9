// The MD5 / SHA-256 of a body as it streams past, on whichever thread suits its size: off the
// main thread (an installed off-thread digest, kernels.ts) when the body is expected to be large,
// inline with node:crypto otherwise — a 4 KiB PUT does not pay a thread hop. One interface for
// both, so the backends' ingest and the gateway's payload check need no branches.
import { createHash, type Hash } from 'node:crypto';
import { type OffThreadAlgorithm, type OffThreadDigest, offThreadDigest } from './kernels.js';

export interface StreamDigest {
  /** Hashes `chunk` (now, or queued: then it must stay unchanged until `done` runs). */
  update(chunk: Uint8Array, done?: () => void): void;
  /** A promise to await before feeding more when too much is queued; undefined when none. */
  backpressure(): Promise<void> | undefined;
  /** The binary digest, once every update was hashed. Once only. */
  digest(): Promise<Buffer>;
  /** Stops hashing and lets go of queued chunks (an aborted body). Safe after digest(). */
  dispose(): void;
  /** Whether updates run off the main thread. */
  readonly offThread: boolean;
}

/** Bodies from this size on are hashed off the main thread. */
export const OFF_THREAD_MIN_BYTES = 1 << 20;
/** Queued bytes above which the producer waits, and the level it waits for. */
const QUEUE_HIGH = 32 << 20;
const QUEUE_LOW = 8 << 20;

/**
 * A digest for a body of `expectedBytes` (undefined = unknown, hashed inline); `large: true`
 * forces the off-thread path where it exists (bodies lent from registered memory).
 */
export function streamDigest(
  algorithm: OffThreadAlgorithm,
  expectedBytes: number | undefined,
  large = false,
): StreamDigest {
  const off =
    large || (expectedBytes !== undefined && expectedBytes >= OFF_THREAD_MIN_BYTES)
      ? offThreadDigest(algorithm)
      : undefined;
  return off ? new QueuedDigest(off) : new InlineDigest(createHash(algorithm));
}

class InlineDigest implements StreamDigest {
  readonly offThread = false;
  constructor(private readonly hash: Hash) {}
  update(chunk: Uint8Array, done?: () => void): void {
    this.hash.update(chunk);
    done?.();
  }
  backpressure(): undefined {
    return undefined;
  }
  digest(): Promise<Buffer> {
    return Promise.resolve(this.hash.digest());
  }
  dispose(): void {}
}

class QueuedDigest implements StreamDigest {
  readonly offThread = true;
  constructor(private readonly off: OffThreadDigest) {}
  update(chunk: Uint8Array, done?: () => void): void {
    this.off.update(chunk, done);
  }
  backpressure(): Promise<void> | undefined {
    return this.off.pendingBytes > QUEUE_HIGH ? this.off.drained(QUEUE_LOW) : undefined;
  }
  digest(): Promise<Buffer> {
    return this.off.digest();
  }
  dispose(): void {
    this.off.dispose();
  }
}
