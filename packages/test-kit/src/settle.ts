// Waiting for a settled state instead of asserting on a moment: `settle` reads a probe until its
// answer satisfies `done`, then returns that answer; past the bound it throws with the last
// answer, so a test that fails says what it saw. The bound is generous on purpose (a loaded CI
// machine, two cores shared by several suites): a passing test never waits for it.
export interface SettleOptions {
  /** What is awaited, for the error message. */
  readonly what: string;
  /** Give up after this long (default 30 s). */
  readonly timeoutMs?: number;
  /** Pause between reads (default 50 ms). */
  readonly intervalMs?: number;
}

export async function settle<T>(
  probe: () => Promise<T>,
  done: (value: T) => boolean,
  options: SettleOptions,
): Promise<T> {
  const timeoutMs = options.timeoutMs ?? 30_000;
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (done(value)) return value;
    if (Date.now() > end) {
      throw new Error(`${options.what}: not settled in ${timeoutMs} ms; last seen ${JSON.stringify(value)}`);
    }
    await new Promise((r) => setTimeout(r, options.intervalMs ?? 50));
  }
}
