// TransferManager's pool of registered sessions: one pool per (memory kind, part size), opened
// lazily up to `concurrency` sessions and reused across parts and across transfers, so a part
// never pays a registration. acquire() waits for a free session in FIFO order; close() frees
// them all once none is lent out.

import type { SessionMemory } from './open-buffer.js';
import { Session, type SessionOptions } from './session.js';

/** What every pooled session is opened with, besides its size and memory kind. */
export type PooledSessionOptions = Omit<
  SessionOptions,
  'size' | 'memory' | 'maxSize' | 'checksum' | 'fallback'
>;

export class SessionPool {
  private readonly idle: Session[] = [];
  private readonly all: Session[] = [];
  private readonly waiters: Array<(s: Session) => void> = [];
  private opening = 0;

  constructor(
    readonly memory: SessionMemory,
    readonly size: number,
    readonly limit: number,
    private readonly options: PooledSessionOptions,
  ) {}

  /** Sessions opened so far. */
  get opened(): number {
    return this.all.length;
  }

  /** A free session: an idle one, a new one while under the limit, else the next released. */
  async acquire(): Promise<Session> {
    const idle = this.idle.pop();
    if (idle) return idle;
    if (this.all.length + this.opening < this.limit) {
      this.opening++;
      try {
        const s = await Session.open({
          ...this.options,
          size: this.size,
          maxSize: Math.max(this.size, 2 ** 30),
          memory: this.memory,
          // Overlap needs the whole twin staged from the session's own device memory; the
          // manager copies the caller's device memory into the twin itself (part-io.ts).
          ...(this.memory === 'cuda' ? { staging: { overlap: false } } : {}),
        });
        this.all.push(s);
        return s;
      } finally {
        this.opening--;
      }
    }
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  release(s: Session): void {
    const next = this.waiters.shift();
    if (next) next(s);
    else this.idle.push(s);
  }

  /** Closes every session (call when none is lent out). */
  close(): void {
    const errors: unknown[] = [];
    for (const s of this.all.splice(0)) {
      try {
        s.close();
      } catch (e) {
        errors.push(e);
      }
    }
    this.idle.length = 0;
    if (errors.length) throw errors[0];
  }
}
