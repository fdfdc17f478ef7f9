// Starts test/fixtures/gateway-process.mjs (a real gateway: posix + CuServer + cu-middleware) in
// a child process over a temp root, and gives an S3Client for it. Shared by cuobjclient's and
// cuobjtest's end-to-end tests.

import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { S3Client, type S3ClientConfig } from '@aws-sdk/client-s3';

export const FIXTURE = fileURLToPath(new URL('./fixtures/gateway-process.mjs', import.meta.url));
export const CREDENTIALS = { accessKeyId: 'cuobj-access', secretAccessKey: 'cuobj-secret' };

export interface GatewayProcessOptions {
  readonly rdma?: boolean;
  readonly maxTransferSize?: number;
  readonly pool?: { count: number; size: number };
}

export class GatewayProcess {
  private constructor(
    private readonly child: ChildProcess,
    readonly root: string,
    readonly port: number,
    readonly stderr: () => string,
  ) {}

  get endpoint(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  static async start(options: GatewayProcessOptions = {}): Promise<GatewayProcess> {
    const root = await mkdtemp(join(tmpdir(), 'cuobj-gw-'));
    const args = { root, access: CREDENTIALS.accessKeyId, secret: CREDENTIALS.secretAccessKey, ...options };
    const child = spawn(process.execPath, [FIXTURE, JSON.stringify(args)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let err = '';
    child.stderr?.on('data', (d: Buffer) => {
      err += d.toString();
    });
    const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
    const port = await new Promise<number>((resolve, reject) => {
      lines.once('line', (l) => resolve((JSON.parse(l) as { port: number }).port));
      child.once('exit', (code) => reject(new Error(`gateway exited with ${code}: ${err}`)));
    });
    return new GatewayProcess(child, root, port, () => err);
  }

  /** A path-style S3Client for this gateway; extra config merged over the defaults. */
  client(extra: Partial<S3ClientConfig> = {}): S3Client {
    return new S3Client({
      endpoint: this.endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: CREDENTIALS,
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      ...extra,
    });
  }

  async stop(): Promise<void> {
    if (this.child.exitCode === null) {
      const exited = new Promise((r) => this.child.once('exit', r));
      this.child.kill('SIGTERM');
      await exited;
    }
    await rm(this.root, { recursive: true, force: true });
  }
}
