// Test helpers: a HostClient child process driven over IPC, and the same pattern it fills
// memory with, so the server side can check transfers byte for byte.

import { type ChildProcess, fork } from 'node:child_process';
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import type { HostClientOptions, RdmaOp } from '../src/index.js';

const CHILD = fileURLToPath(new URL('./fixtures/client-child.mjs', import.meta.url));

type Reply = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: ChildError };
export interface ChildError {
  name: string;
  code?: string;
  errno?: number;
  message: string;
}

/** A HostClient living in another process. */
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

  static start(options: Omit<HostClientOptions, 'shimDir'> = {}): Promise<ClientProcess> {
    const json = JSON.stringify(options, (_k, v) => (typeof v === 'bigint' ? v.toString() : v));
    const proc = fork(CHILD, [json], {
      // Plain node resolving the built packages (dist/ and its @vgwrdma/rdma-protocol import),
      // not this worker's 'source' condition, which would point it at TypeScript.
      execArgv: [],
      serialization: 'advanced',
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    return new Promise((resolve, reject) => {
      proc.once('error', reject);
      proc.once('exit', (code) => reject(new Error(`client child exited early (${code})`)));
      proc.once('message', (m: { ready: boolean; port: number }) => resolve(new ClientProcess(proc, m.port)));
    });
  }

  /** Runs a command; rejects with the child's error fields. */
  call<T>(cmd: string, args: Record<string, unknown> = {}): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.waiting.set(id, (r) =>
        r.ok ? resolve(r.value as T) : reject(Object.assign(new Error(r.error.message), r.error)),
      );
      this.proc.send({ id, cmd, args });
    });
  }

  alloc(size: number) {
    return this.call<{ region: number; address: bigint; rkey: number }>('alloc', { size });
  }
  fill(region: number, seed: number) {
    return this.call<true>('fill', { region, seed });
  }
  sha256(region: number, offset?: number, size?: number) {
    return this.call<string>('sha256', { region, offset, size });
  }
  token(region: number, offset: number, size: number, op: RdmaOp) {
    return this.call<string>('token', { region, offset, size, op });
  }

  async stop(): Promise<void> {
    if (this.proc.exitCode !== null || this.proc.signalCode !== null) return;
    this.proc.removeAllListeners('exit');
    const exited = new Promise((r) => this.proc.once('exit', r));
    await this.call('exit').catch(() => undefined);
    await exited;
  }

  kill(): Promise<void> {
    this.proc.removeAllListeners('exit');
    const exited = new Promise<void>((r) => this.proc.once('exit', () => r()));
    this.proc.kill('SIGKILL');
    return exited;
  }
}

/** The child's pattern for `seed` (same generator as fixtures/client-child.mjs). */
export function pattern(seed: number): Buffer {
  const p = Buffer.alloc((1 << 20) + 7);
  let s = seed >>> 0 || 1;
  for (let i = 0; i < p.length; i++) {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    p[i] = (s & 0xff) | 1;
  }
  return p;
}

/** Fills `bytes` with the pattern for `seed`. */
export function fillPattern(bytes: Uint8Array, seed: number): void {
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).fill(pattern(seed));
}

export function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

export const MiB = 1 << 20;
