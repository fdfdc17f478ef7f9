// Test helper: drives a HostClient child process (fixtures/client-child.ts) over IPC.

import { type ChildProcess, fork } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const CHILD = fileURLToPath(new URL('./fixtures/client-child.ts', import.meta.url));
const TSX = createRequire(import.meta.url).resolve('tsx');

type Reply = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: { message: string } };

export class ClientProcess {
  private nextId = 1;
  private readonly waiting = new Map<number, (r: Reply) => void>();

  private constructor(
    readonly proc: ChildProcess,
    readonly agentPort: number,
  ) {
    proc.on('message', (m: Reply) => {
      this.waiting.get(m.id)?.(m);
      this.waiting.delete(m.id);
    });
  }

  static start(options: { allowDirect?: boolean } = {}): Promise<ClientProcess> {
    const proc = fork(CHILD, [JSON.stringify(options)], {
      execArgv: ['--conditions=source', '--import', TSX],
      serialization: 'advanced',
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    return new Promise((resolve, reject) => {
      proc.once('error', reject);
      proc.once('exit', (code) => reject(new Error(`client child exited early (${code})`)));
      proc.once('message', (m: { port: number }) => {
        proc.removeAllListeners('exit');
        resolve(new ClientProcess(proc, m.port));
      });
    });
  }

  call<T>(cmd: string, args: Record<string, unknown> = {}): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.waiting.set(id, (r) => (r.ok ? resolve(r.value as T) : reject(new Error(r.error.message))));
      this.proc.send({ id, cmd, args });
    });
  }

  alloc(size: number) {
    return this.call<{ region: number; address: bigint }>('alloc', { size });
  }
  fill(region: number, seed: number) {
    return this.call<true>('fill', { region, seed });
  }
  hash(region: number, opts: { algorithm?: string; encoding?: string; offset?: number; size?: number } = {}) {
    return this.call<string>('hash', { region, ...opts });
  }
  bytes(region: number, offset?: number, size?: number) {
    return this.call<Uint8Array>('bytes', { region, offset, size });
  }
  token(region: number, offset: number, size: number, op: 'get' | 'put') {
    return this.call<string>('token', { region, offset, size, op });
  }

  async stop(): Promise<void> {
    if (this.proc.exitCode !== null || this.proc.signalCode !== null) return;
    const exited = new Promise((r) => this.proc.once('exit', r));
    await this.call('exit').catch(() => undefined);
    await exited;
  }

  kill(): Promise<void> {
    if (this.proc.exitCode !== null || this.proc.signalCode !== null) return Promise.resolve();
    const exited = new Promise<void>((r) => this.proc.once('exit', () => r()));
    this.proc.kill('SIGKILL');
    return exited;
  }
}
