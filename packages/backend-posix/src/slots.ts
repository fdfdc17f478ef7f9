// A counting semaphore, first come first served: at most `max` holders at once, a release hands
// the slot straight to the next waiter. Used to limit backend operations (concurrency-limit.ts)
// and writes into one file (fs/write-gate.ts).
export class Slots {
  private busy = 0;
  private readonly waiting: (() => void)[] = [];
  constructor(private readonly max: number) {}

  acquire(): Promise<void> {
    if (this.busy < this.max) {
      this.busy++;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  /** Hands the slot to the next waiter, or frees it. */
  release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.busy--;
  }

  /** Runs `task` holding a slot, released however it settles. */
  async run<T>(task: () => Promise<T>): Promise<T> {
    await this.acquire();
    try {
      return await task();
    } finally {
      this.release();
    }
  }
}
