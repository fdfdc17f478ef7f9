// The gateway's shutdown order: stop serving HTTP, then each plugin in reverse order (the last one
// added may depend on the ones before it), then the backend. Every step runs even when an earlier
// one failed, so one broken plugin does not leak the backend's resources; the failures are
// reported together at the end.

export interface ShutdownStep {
  /** Names the step in the error, e.g. "plugin 'rdma'". */
  readonly name: string;
  run(): Promise<void>;
}

export async function runShutdown(steps: readonly ShutdownStep[]): Promise<void> {
  const failures: Error[] = [];
  for (const step of steps) {
    try {
      await step.run();
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      failures.push(new Error(`${step.name}: ${why}`, { cause: error }));
    }
  }
  const [first] = failures;
  if (first === undefined) return;
  if (failures.length === 1) throw first;
  throw new AggregateError(failures, `shutdown: ${failures.map((f) => f.message).join('; ')}`);
}
