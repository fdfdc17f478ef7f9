// A helper process driven over Node's IPC channel: the test forks a script, waits for its first
// message (what it is ready with, e.g. its agent port), then sends `{ id, cmd, args }` commands
// and gets `{ id, ok, value | error }` replies. `exit` asks the child to leave; kill() does not ask.
import { type ChildProcess, fork } from 'node:child_process';
import { track } from './child-registry.js';

/** What a failed command rejects with: the child's error, its fields (code, errno …) kept. */
export interface ChildError {
  name: string;
  code?: string;
  errno?: number;
  message: string;
}

type Reply = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: ChildError };

export interface IpcChildOptions {
  /** argv after the script. */
  readonly args?: readonly string[];
  /** Node flags for the child (e.g. a loader for a TypeScript script). */
  readonly execArgv?: readonly string[];
}

export class IpcChild<Ready = unknown> {
  private nextId = 1;
  private readonly waiting = new Map<number, (r: Reply) => void>();

  private constructor(
    readonly proc: ChildProcess,
    /** The child's first message. */
    readonly ready: Ready,
  ) {
    proc.on('message', (m: Reply) => {
      this.waiting.get(m.id)?.(m);
      this.waiting.delete(m.id);
    });
  }

  /** Forks `script` and resolves once it has sent its first message; rejects if it exits first. */
  static start<Ready>(script: string, options: IpcChildOptions = {}): Promise<IpcChild<Ready>> {
    const proc = track(
      fork(script, [...(options.args ?? [])], {
        execArgv: [...(options.execArgv ?? [])],
        serialization: 'advanced',
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      }),
    );
    return new Promise((resolve, reject) => {
      const early = (code: number | null) => reject(new Error(`child ${script} exited early (${code})`));
      proc.once('error', reject);
      proc.once('exit', early);
      proc.once('message', (m: Ready) => {
        proc.off('exit', early);
        resolve(new IpcChild(proc, m));
      });
    });
  }

  /** Runs a command in the child; rejects with the child's error fields. */
  call<T>(cmd: string, args: Record<string, unknown> = {}): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.waiting.set(id, (r) =>
        r.ok ? resolve(r.value as T) : reject(Object.assign(new Error(r.error.message), r.error)),
      );
      this.proc.send({ id, cmd, args });
    });
  }

  private get exited(): boolean {
    return this.proc.exitCode !== null || this.proc.signalCode !== null;
  }

  /** Asks the child to exit (the `exit` command) and waits until it has. */
  async stop(): Promise<void> {
    if (this.exited) return;
    const gone = new Promise((r) => this.proc.once('exit', r));
    await this.call('exit').catch(() => undefined);
    await gone;
  }

  /** SIGKILL, and wait for the exit. */
  kill(): Promise<void> {
    if (this.exited) return Promise.resolve();
    const gone = new Promise<void>((r) => this.proc.once('exit', () => r()));
    this.proc.kill('SIGKILL');
    return gone;
  }
}
