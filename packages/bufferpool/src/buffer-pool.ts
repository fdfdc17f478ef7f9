// BufferPool: `count` buffers of `size` bytes, allocated and registered with an RdmaServer once,
// at creation, and lent out per request. Registration is expensive (pinning, NIC tables), so it
// never happens on the request path. Invariants:
//   - every buffer is either free, leased to exactly one holder, or closed;
//   - waiters are served first come, first served, and a released buffer goes straight to the
//     oldest waiter;
//   - every wait is bounded (timeoutMs, or the pool's default): a request that cannot get a
//     buffer in time is told so (PoolError VGW_ERR_POOL_TIMEOUT) and can decline, never hang;
//   - close() rejects waiters, deregisters and frees the free buffers at once, and each leased
//     buffer when its lease comes back.

import { InvalidArgumentError } from '@vgwrdma/errors';
import type { RdmaBuffer, RdmaServer } from '@vgwrdma/rdma-ffi';
import { BufferLease } from './buffer-lease.js';
import { abortReason, PoolError } from './errors.js';

export interface BufferPoolOptions {
  /** Number of buffers (≥ 1). */
  readonly count: number;
  /** Bytes per buffer (≥ 1). */
  readonly size: number;
  /** Longest wait of an acquire() that gives no timeoutMs; default 1000 ms. */
  readonly defaultWaitMs?: number;
}

export interface AcquireOptions {
  /** Aborting rejects the wait with the signal's reason (a lease already granted is unaffected). */
  readonly signal?: AbortSignal;
  /** Longest wait in ms; 0 = only if a buffer is free now. Default: the pool's defaultWaitMs. */
  readonly timeoutMs?: number;
}

/** Counters of a pool. `totalWaits`, `timeouts`, `acquired` and `peakInUse` are monotonic. */
export interface BufferPoolStats {
  readonly count: number;
  readonly bufferSize: number;
  readonly free: number;
  readonly inUse: number;
  /** acquire() calls waiting now. */
  readonly waiting: number;
  /** acquire() calls that had to wait (no buffer was free when they were made). */
  readonly totalWaits: number;
  /** Waits that ended in VGW_ERR_POOL_TIMEOUT. */
  readonly timeouts: number;
  /** Leases granted since creation. */
  readonly acquired: number;
  /** The most buffers leased at once since creation (how many transfers overlapped). */
  readonly peakInUse: number;
}

interface Waiter {
  readonly grant: (b: RdmaBuffer) => void;
  readonly fail: (err: unknown) => void;
}

export class BufferPool implements AsyncDisposable {
  private readonly free: RdmaBuffer[];
  private readonly leased = new Set<BufferLease>();
  private readonly waiters: Waiter[] = [];
  private readonly defaultWaitMs: number;
  private closing = false;
  private closedWaiters: (() => void)[] = [];
  private counters = { totalWaits: 0, timeouts: 0, acquired: 0, peakInUse: 0 };

  private constructor(
    buffers: RdmaBuffer[],
    readonly bufferSize: number,
    defaultWaitMs: number,
  ) {
    this.free = buffers;
    this.count = buffers.length;
    this.defaultWaitMs = defaultWaitMs;
  }

  /** Number of buffers the pool owns. */
  readonly count: number;

  /** Allocates and registers `count` buffers of `size` bytes on `server`. All or nothing. */
  static create(server: RdmaServer, options: BufferPoolOptions): BufferPool {
    const { count, size, defaultWaitMs = 1000 } = options;
    if (!Number.isSafeInteger(count) || count < 1)
      throw new InvalidArgumentError(`pool count must be ≥ 1, got ${count}`);
    if (!Number.isSafeInteger(size) || size < 1)
      throw new InvalidArgumentError(`pool buffer size must be ≥ 1, got ${size}`);
    if (!(defaultWaitMs >= 0) || !Number.isFinite(defaultWaitMs)) {
      throw new InvalidArgumentError(`defaultWaitMs must be a finite number ≥ 0, got ${defaultWaitMs}`);
    }
    const buffers: RdmaBuffer[] = [];
    try {
      for (let i = 0; i < count; i++) buffers.push(server.allocateBuffer(size));
    } catch (err) {
      for (const b of buffers) b.close();
      throw err;
    }
    return new BufferPool(buffers, size, defaultWaitMs);
  }

  /** Whether close() has been called. */
  get closed(): boolean {
    return this.closing;
  }

  stats(): BufferPoolStats {
    return {
      count: this.count,
      bufferSize: this.bufferSize,
      free: this.free.length,
      inUse: this.leased.size,
      waiting: this.waiters.length,
      ...this.counters,
    };
  }

  /** A lease when a buffer is free right now (and nobody is queued before us), else undefined. */
  tryAcquire(): BufferLease | undefined {
    if (this.closing || this.waiters.length > 0) return undefined;
    const b = this.free.pop();
    return b ? this.lease(b) : undefined;
  }

  /**
   * A buffer, waiting at most `timeoutMs` (default: the pool's defaultWaitMs). Rejects with
   * PoolError VGW_ERR_POOL_TIMEOUT when none came in time, VGW_ERR_POOL_CLOSED when the pool closes, or the
   * signal's reason when aborted.
   */
  acquire(options: AcquireOptions = {}): Promise<BufferLease> {
    const { signal } = options;
    const timeoutMs = options.timeoutMs ?? this.defaultWaitMs;
    if (!(timeoutMs >= 0) || !Number.isFinite(timeoutMs)) {
      return Promise.reject(
        new InvalidArgumentError(`timeoutMs must be a finite number ≥ 0, got ${timeoutMs}`),
      );
    }
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    if (this.closing)
      return Promise.reject(new PoolError('VGW_ERR_POOL_CLOSED', 'the buffer pool is closed'));
    const now = this.tryAcquire();
    if (now) return Promise.resolve(now);
    if (timeoutMs === 0) {
      this.counters.timeouts++;
      return Promise.reject(new PoolError('VGW_ERR_POOL_TIMEOUT', 'no free buffer'));
    }
    this.counters.totalWaits++;
    return new Promise<BufferLease>((resolve, reject) => {
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        const i = this.waiters.indexOf(waiter);
        if (i >= 0) this.waiters.splice(i, 1);
      };
      const waiter: Waiter = {
        grant: (b) => {
          done();
          resolve(this.lease(b));
        },
        fail: (err) => {
          done();
          reject(err);
        },
      };
      const timer = setTimeout(() => {
        this.counters.timeouts++;
        waiter.fail(new PoolError('VGW_ERR_POOL_TIMEOUT', `no buffer became free within ${timeoutMs} ms`));
      }, timeoutMs);
      const onAbort = () => waiter.fail(abortReason(signal as AbortSignal));
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiters.push(waiter);
    });
  }

  private lease(b: RdmaBuffer): BufferLease {
    const l = new BufferLease(b, (x) => this.giveBack(x));
    this.leased.add(l);
    this.counters.peakInUse = Math.max(this.counters.peakInUse, this.leased.size);
    this.counters.acquired++;
    return l;
  }

  private giveBack(l: BufferLease): void {
    if (!this.leased.delete(l)) return;
    const b = l.buffer;
    if (this.closing) {
      b.close();
      if (this.leased.size === 0) this.notifyClosed();
      return;
    }
    const next = this.waiters[0];
    if (next) next.grant(b);
    else this.free.push(b);
  }

  private notifyClosed(): void {
    const w = this.closedWaiters;
    this.closedWaiters = [];
    for (const f of w) f();
  }

  /**
   * Rejects every waiter (VGW_ERR_POOL_CLOSED), deregisters and frees the free buffers now and each
   * leased one when it is released; resolves once every buffer is freed. Idempotent.
   */
  close(): Promise<void> {
    if (!this.closing) {
      this.closing = true;
      for (const w of [...this.waiters])
        w.fail(new PoolError('VGW_ERR_POOL_CLOSED', 'the buffer pool closed while waiting'));
      for (const b of this.free.splice(0)) b.close();
    }
    if (this.leased.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.closedWaiters.push(resolve));
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}
