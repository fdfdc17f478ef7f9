// Test helpers: a HostClient child process driven over IPC, and the same pattern it fills
// memory with, so the server side can check transfers byte for byte.

import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { parseRdmaToken, type RdmaOp, type RdmaToken } from '@vgwrdma/rdma-protocol';
import { IpcChild } from '@vgwrdma/test-kit';
import type { HostClientOptions } from '../src/index.js';
import { pattern } from './fixtures/pattern.mjs';

const CHILD = fileURLToPath(new URL('./fixtures/client-child.mjs', import.meta.url));

/** A HostClient living in another process. */
export class ClientProcess {
  private constructor(private readonly child: IpcChild<{ ready: boolean; port: number }>) {}

  get proc() {
    return this.child.proc;
  }
  get agentPort(): number {
    return this.child.ready.port;
  }

  static async start(options: Omit<HostClientOptions, 'shimDir'> = {}): Promise<ClientProcess> {
    const json = JSON.stringify(options, (_k, v) => (typeof v === 'bigint' ? v.toString() : v));
    return new ClientProcess(await IpcChild.start(CHILD, { args: [json] }));
  }

  /** Runs a command; rejects with the child's error fields. */
  call<T>(cmd: string, args: Record<string, unknown> = {}): Promise<T> {
    return this.child.call<T>(cmd, args);
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
  /** A token the child's region mints, parsed (as the gateway's HTTP edge would hand it over). */
  async token(region: number, offset: number, size: number, op: RdmaOp): Promise<RdmaToken> {
    return parseRdmaToken(await this.call<string>('token', { region, offset, size, op }));
  }

  stop(): Promise<void> {
    return this.child.stop();
  }

  kill(): Promise<void> {
    return this.child.kill();
  }
}

/** The child's pattern for `seed` (the generator fixtures/client-child.mjs uses too). */
export { pattern };

/** Fills `bytes` with the pattern for `seed`. */
export function fillPattern(bytes: Uint8Array, seed: number): void {
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).fill(pattern(seed));
}

export function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

export const MiB = 1 << 20;
