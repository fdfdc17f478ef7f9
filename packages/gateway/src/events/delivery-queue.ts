// The bounded, asynchronous delivery of event messages. `push` never waits and never fails: when
// the queue is full the oldest waiting message is dropped (counted, and logged at most once a
// second). A few workers send messages in order of arrival; a failed send is retried with
// exponential backoff up to `maxAttempts`, then given up (counted and logged). Nothing here ever
// reaches the S3 request that caused the event.
import type { Logger } from '../logger.js';

export interface DeliveryOptions {
  /** Messages waiting at most (beyond: drop oldest). Default 1000. */
  readonly capacity?: number;
  /** Sends of one message at most, the first included. Default 5. */
  readonly maxAttempts?: number;
  /** Wait before the first retry; doubles each time, capped at maxBackoffMs. Default 200. */
  readonly backoffMs?: number;
  readonly maxBackoffMs?: number;
  /** Messages in flight at once. Default 4. */
  readonly concurrency?: number;
}

/** Sends one message; rejects (or resolves false) when the target did not take it. */
export type Send = (body: string, signal: AbortSignal) => Promise<void>;

export interface DeliveryStats {
  readonly queued: number;
  readonly delivered: number;
  readonly retried: number;
  readonly dropped: number;
  readonly failed: number;
}

export class DeliveryQueue {
  private readonly waiting: string[] = [];
  private active = 0;
  private closed = false;
  private readonly stopping = new AbortController();
  private lastDropLog = 0;
  private readonly idle = new Set<() => void>();
  private readonly opts: Required<DeliveryOptions>;
  private counts = { delivered: 0, retried: 0, dropped: 0, failed: 0 };

  constructor(
    private readonly send: Send,
    private readonly logger: Logger,
    options: DeliveryOptions = {},
  ) {
    this.opts = {
      capacity: options.capacity ?? 1000,
      maxAttempts: options.maxAttempts ?? 5,
      backoffMs: options.backoffMs ?? 200,
      maxBackoffMs: options.maxBackoffMs ?? 10_000,
      concurrency: options.concurrency ?? 4,
    };
  }

  stats(): DeliveryStats {
    return { queued: this.waiting.length, ...this.counts };
  }

  push(body: string): void {
    if (this.closed) return;
    if (this.waiting.length >= this.opts.capacity) {
      this.waiting.shift();
      this.counts.dropped++;
      const now = Date.now();
      if (now - this.lastDropLog >= 1000) {
        this.lastDropLog = now;
        this.logger.warn(
          { dropped: this.counts.dropped, capacity: this.opts.capacity },
          'event queue full: dropped the oldest event notification',
        );
      }
    }
    this.waiting.push(body);
    this.pump();
  }

  /** Resolves when nothing is waiting or in flight. */
  drained(): Promise<void> {
    if (this.active === 0 && this.waiting.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idle.add(resolve));
  }

  /** Stops taking messages and abandons retries; in-flight sends are aborted. */
  close(): void {
    this.closed = true;
    this.waiting.length = 0;
    this.stopping.abort();
    this.pump();
  }

  private pump(): void {
    while (!this.closed && this.active < this.opts.concurrency && this.waiting.length > 0) {
      const body = this.waiting.shift() as string;
      this.active++;
      void this.deliver(body).finally(() => {
        this.active--;
        this.pump();
      });
    }
    if (this.active === 0 && this.waiting.length === 0) {
      for (const resolve of this.idle) resolve();
      this.idle.clear();
    }
  }

  private async deliver(body: string): Promise<void> {
    let wait = this.opts.backoffMs;
    for (let attempt = 1; ; attempt++) {
      try {
        await this.send(body, this.stopping.signal);
        this.counts.delivered++;
        return;
      } catch (err) {
        if (this.closed) return;
        if (attempt >= this.opts.maxAttempts) {
          this.counts.failed++;
          this.logger.warn(
            { err: err instanceof Error ? err.message : String(err), attempts: attempt },
            'event notification not delivered: giving up',
          );
          return;
        }
        this.counts.retried++;
        await sleep(wait, this.stopping.signal);
        if (this.closed) return;
        wait = Math.min(wait * 2, this.opts.maxBackoffMs);
      }
    }
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const t = setTimeout(resolve, ms);
    t.unref();
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(t);
        resolve();
      },
      { once: true },
    );
  });
}
