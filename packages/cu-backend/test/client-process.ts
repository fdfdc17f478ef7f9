// Test helper: drives a HostClient child process (fixtures/client-child.ts) over IPC.

import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { IpcChild } from '@vgwrdma/test-kit';

const CHILD = fileURLToPath(new URL('./fixtures/client-child.ts', import.meta.url));
const TSX = createRequire(import.meta.url).resolve('tsx');

export class ClientProcess {
  private constructor(private readonly child: IpcChild<{ port: number }>) {}

  get proc() {
    return this.child.proc;
  }
  get agentPort(): number {
    return this.child.ready.port;
  }

  static async start(options: { allowDirect?: boolean } = {}): Promise<ClientProcess> {
    const child = await IpcChild.start<{ port: number }>(CHILD, {
      args: [JSON.stringify(options)],
      execArgv: ['--conditions=source', '--import', TSX],
    });
    return new ClientProcess(child);
  }

  call<T>(cmd: string, args: Record<string, unknown> = {}): Promise<T> {
    return this.child.call<T>(cmd, args);
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

  stop(): Promise<void> {
    return this.child.stop();
  }

  kill(): Promise<void> {
    return this.child.kill();
  }
}
