// Graceful shutdown on SIGINT/SIGTERM: the first signal resolves `stopRequested` so the caller can
// close the server and the backend; a second one exits at once (128 + signal number), for the
// operator who does not want to wait for open requests.

const EXIT_AT_ONCE: Readonly<Record<'SIGINT' | 'SIGTERM', number>> = { SIGINT: 130, SIGTERM: 143 };

interface ShutdownSignals {
  /** Resolves with the first signal received. */
  readonly stopRequested: Promise<NodeJS.Signals>;
  /** Removes the handlers (after a clean shutdown). */
  dispose(): void;
}

export function watchShutdownSignals(onSecondSignal: (code: number) => void): ShutdownSignals {
  let received: NodeJS.Signals | undefined;
  let resolveStop: (signal: NodeJS.Signals) => void = () => {};
  const stopRequested = new Promise<NodeJS.Signals>((resolve) => {
    resolveStop = resolve;
  });
  const handlers = (Object.keys(EXIT_AT_ONCE) as (keyof typeof EXIT_AT_ONCE)[]).map((signal) => {
    const handler = (): void => {
      if (received !== undefined) {
        onSecondSignal(EXIT_AT_ONCE[signal]);
        return;
      }
      received = signal;
      resolveStop(signal);
    };
    process.on(signal, handler);
    return { signal, handler };
  });
  return {
    stopRequested,
    dispose: () => {
      for (const { signal, handler } of handlers) process.off(signal, handler);
    },
  };
}
