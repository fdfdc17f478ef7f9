// The bounded, asynchronous delivery of event messages. `push` never waits and never fails: when
// the queue is full the oldest waiting message is dropped (counted, and logged at most once a
// second). A few workers send messages in order of arrival; a failed send is retried with
// exponential backoff up to `maxAttempts`, then given up (counted and logged). Every retry is
// logged at debug and every give-up at warn, with the target URL, bucket, key, event name and the
// cause. With a store (queue-store.ts) each message is on disk from push() until it is delivered,
// given up or dropped, and restore() queues what a previous run left. Nothing here ever reaches
// the S3 request that caused the event.
import type { Logger } from '../logger.js';
import type { EventAbout, QueueStore } from './queue-store.js';

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

interface Queued {
  readonly body: string;
  readonly about: EventAbout | undefined;
  /** The message's file, with a store. */
  readonly file: Promise<string | undefined>;
}

/** Sends one message; rejects (or resolves false) when the target did not take it. */
export type Send = (body: string, signal: AbortSignal) => Promise<void>;

export interface DeliveryStats {
  /** Waiting for a sender. */
  readonly queued: number;
  /** Being sent now (retries of those included). */
  readonly sending: number;
  readonly delivered: number;
  readonly retried: number;
  readonly dropped: number;
  readonly failed: number;
}

export class DeliveryQueue {
  private readonly waiting: Queued[] = [];
  private active = 0;
  private closed = false;
  private readonly stopping = new AbortController();
  private lastDropLog = 0;
  private readonly idle = new Set<() => void>();
  private readonly opts: Required<Omit<DeliveryOptions, 'target' | 'store'>>;
  private counts = { delivered: 0, retried: 0, dropped: 0, failed: 0 };
  private readonly target: string | undefined;
  private readonly store: QueueStore | undefined;

  constructor(
    private readonly send: Send,
    private readonly logger: Logger,
    options: DeliveryOptions & {
      /** The target's URL, for the logs. */
      readonly target?: string;
      readonly store?: QueueStore;
    } = {},
  ) {
    this.target = options.target;
    this.store = options.store;
    this.opts = {
      capacity: options.capacity ?? 1000,
      maxAttempts: options.maxAttempts ?? 5,
      backoffMs: options.backoffMs ?? 200,
      maxBackoffMs: options.maxBackoffMs ?? 10_000,
      concurrency: options.concurrency ?? 4,
    };
  }

  stats(): DeliveryStats {
    return { queued: this.waiting.length, sending: this.active, ...this.counts };
  }

  push(body: string, about?: EventAbout): void {
    if (this.closed) return;
    const file = this.store
      ? this.store.save({ body, ...(about ? { about } : {}) }).catch((err: unknown) => {
          this.logger.warn(
            { err: String(err), dir: this.store?.dir, ...about },
            'event queue: cannot store a message',
          );
          return undefined;
        })
      : Promise.resolve(undefined);
    this.enqueue({ body, about, file });
  }

  /** Queues the messages a previous run left in the store (oldest first); answers how many. */
  async restore(): Promise<number> {
    if (!this.store) return 0;
    const left = await this.store.load();
    for (const { file, message } of left)
      this.enqueue({ body: message.body, about: message.about, file: Promise.resolve(file) });
    return left.length;
  }

  private forget(item: Queued): void {
    const store = this.store;
    if (store) void item.file.then((f) => (f === undefined ? undefined : store.remove(f)));
  }

  private enqueue(item: Queued): void {
    if (this.closed) return;
    if (this.waiting.length >= this.opts.capacity) {
      const oldest = this.waiting.shift();
      if (oldest) this.forget(oldest);
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
    this.waiting.push(item);
    this.pump();
  }

  /** Resolves when nothing is waiting or in flight. */
  drained(): Promise<void> {
    if (this.active === 0 && this.waiting.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idle.add(resolve));
  }

  /** Stops taking messages and abandons retries; in-flight sends are aborted (stored ones stay on disk). */
  close(): void {
    this.closed = true;
    this.waiting.length = 0;
    this.stopping.abort();
    this.pump();
  }

  private pump(): void {
    while (!this.closed && this.active < this.opts.concurrency && this.waiting.length > 0) {
      const item = this.waiting.shift() as Queued;
      this.active++;
      void this.deliver(item).finally(() => {
        this.active--;
        this.pump();
      });
    }
    if (this.active === 0 && this.waiting.length === 0) {
      for (const resolve of this.idle) resolve();
      this.idle.clear();
    }
  }

  private async deliver(item: Queued): Promise<void> {
    let wait = this.opts.backoffMs;
    for (let attempt = 1; ; attempt++) {
      try {
        await this.send(item.body, this.stopping.signal);
        this.counts.delivered++;
        this.forget(item);
        return;
      } catch (err) {
        if (this.closed) return;
        const what = { url: this.target, ...item.about, cause: causeOf(err) };
        if (attempt >= this.opts.maxAttempts) {
          this.counts.failed++;
          this.forget(item);
          this.logger.warn({ ...what, attempts: attempt }, 'event notification not delivered: giving up');
          return;
        }
        this.counts.retried++;
        this.logger.debug(
          { ...what, attempt, retryInMs: wait },
          'event notification not delivered: retrying',
        );
        await sleep(wait, this.stopping.signal);
        if (this.closed) return;
        wait = Math.min(wait * 2, this.opts.maxBackoffMs);
      }
    }
  }
}

/** The error's message, with its cause's (fetch's "fetch failed" hides ECONNREFUSED there). */
function causeOf(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const inner =
    err.cause instanceof Error ? `: ${(err.cause as NodeJS.ErrnoException).code ?? err.cause.message}` : '';
  return `${err.message}${inner}`;
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
