// Turns the server's native completions into settled promises without blocking the event loop.
// Transfers run on the shim's per-channel worker threads; each accepted submit produces exactly
// one completion {user_tag, status, message} (a failure's RdmaError carries the message) and makes the server's eventfd readable. We watch that fd
// with koffi.node.poll (a libuv poll handle on the main loop — no thread pool involved), then
// drain completions until a short batch says the queue is empty. The poll handle is ref'd only
// while transfers are pending, so an idle server never keeps the process alive.

import type { Koffi } from '@vgwrdma/native';
import { errnoOf, RdmaError } from '../errors.js';
import { ASYNC_MESSAGE_LEN } from '../native/layouts.js';
import type { Ptr, ShimLibrary } from '../native/shim-library.js';

const BATCH = 16; // events per poll_completions_ex call
const EVENT_SIZE = 16 + ASYNC_MESSAGE_LEN; // sizeof(cuobj_async_event_ex_t), asserted in the layout test

interface Pending {
  readonly op: string;
  readonly resolve: (bytes: number) => void;
  readonly reject: (err: Error) => void;
}

/** Submits a native transfer with a tag; returns 0 or a negative errno. */
type SubmitWithTag = (tag: number) => number;

export class CompletionQueue {
  private readonly pending = new Map<number, Pending>();
  private readonly events = Buffer.alloc(BATCH * EVENT_SIZE);
  private readonly handle: Koffi.node.PollHandle;
  private idleWaiters: (() => void)[] = [];
  private nextTag = 1;
  private closed = false;

  constructor(
    private readonly lib: ShimLibrary,
    private readonly srv: Ptr,
    poll: typeof Koffi.node.poll,
  ) {
    const fd = lib.fn.cuobj_server_completion_fd(srv);
    if (fd < 0) throw new RdmaError('completionFd', fd, lib.lastError().message);
    this.handle = poll(fd, { readable: true }, () => this.drain());
    this.handle.unref();
  }

  /** Transfers submitted and not yet completed. */
  get inFlight(): number {
    return this.pending.size;
  }

  /** Submits through `submit` and resolves with the bytes moved, or rejects with RdmaError. */
  run(op: string, submit: SubmitWithTag): Promise<number> {
    if (this.closed) return Promise.reject(new RdmaError(op, errnoOf('EBADF'), 'server is closed'));
    const tag = this.nextTag++;
    return new Promise<number>((resolve, reject) => {
      const ret = submit(tag);
      if (ret < 0) {
        reject(new RdmaError(op, ret, this.lib.lastError().message));
        return;
      }
      this.pending.set(tag, { op, resolve, reject });
      if (this.pending.size === 1 && !this.closed) this.handle.ref();
    });
  }

  /** Moves every queued completion into its promise. */
  private drain(): void {
    for (;;) {
      const n = this.lib.fn.cuobj_server_poll_completions_ex(this.srv, this.events, BATCH);
      if (n < 0) {
        this.failAll(new RdmaError('pollCompletions', n, this.lib.lastError().message));
        return;
      }
      for (let i = 0; i < n; i++) {
        const tag = Number(this.events.readBigUInt64LE(i * EVENT_SIZE));
        const status = Number(this.events.readBigInt64LE(i * EVENT_SIZE + 8));
        const p = this.pending.get(tag);
        if (!p) continue; // a tag we no longer wait for (server closing)
        this.pending.delete(tag);
        if (status < 0) p.reject(new RdmaError(p.op, status, this.messageAt(i)));
        else p.resolve(status);
      }
      if (n < BATCH) break;
    }
    if (this.pending.size === 0) this.becameIdle();
  }

  /** The NUL-terminated message of event i (the native failure's text; '' when none). */
  private messageAt(i: number): string {
    const start = i * EVENT_SIZE + 16;
    const end = this.events.indexOf(0, start);
    return this.events.toString(
      'utf8',
      start,
      end < 0 || end > start + ASYNC_MESSAGE_LEN ? start + ASYNC_MESSAGE_LEN : end,
    );
  }

  /** Resolves once no transfer is pending (at once if none is). */
  idle(): Promise<void> {
    if (this.pending.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private becameIdle(): void {
    // koffi 3.3.4 dereferences NULL on ref()/unref() after close(): never touch a closed handle.
    if (!this.closed) this.handle.unref();
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const w of waiters) w();
  }

  private failAll(err: Error): void {
    for (const p of this.pending.values()) p.reject(err);
    this.pending.clear();
    this.becameIdle();
  }

  /** Stops watching; pending transfers are rejected with ECANCELED. Call before destroying the server. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.handle.stop();
    this.handle.close();
    this.failAll(
      new RdmaError('transfer', errnoOf('ECANCELED'), 'server closed while the transfer was in flight'),
    );
  }
}
