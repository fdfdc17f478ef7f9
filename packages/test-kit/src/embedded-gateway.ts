// Starts test-kit's gateway child (a real gateway: posix + the RDMA plugin) in a child process
// over a temp root, and gives an S3Client for it. Shared by cuobjclient's and cuobjtest's
// end-to-end tests (as EmbeddedGateway, beside the app's GatewayProcess).

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { S3Client, type S3ClientConfig } from '@aws-sdk/client-s3';
import { type GatewayChild, startGatewayChild } from './gateway-child-process.js';

export const EMBEDDED_CREDENTIALS = { accessKeyId: 'cuobj-access', secretAccessKey: 'cuobj-secret' };

export interface EmbeddedGatewayOptions {
  /** false: a plain gateway without the RDMA plugin. */
  readonly rdma?: boolean;
  readonly maxTransferSize?: number;
  readonly pool?: { count: number; size: number };
}

export class EmbeddedGateway {
  private constructor(
    private readonly child: GatewayChild,
    readonly root: string,
  ) {}

  get port(): number {
    return this.child.port;
  }

  get endpoint(): string {
    return this.child.endpoint;
  }

  stderr(): string {
    return this.child.stderr();
  }

  static async start(options: EmbeddedGatewayOptions = {}): Promise<EmbeddedGateway> {
    const root = await mkdtemp(join(tmpdir(), 'cuobj-gw-'));
    const rdma = {
      ...(options.pool === undefined ? {} : { pool: options.pool }),
      ...(options.maxTransferSize === undefined ? {} : { maxTransferSize: options.maxTransferSize }),
    };
    try {
      const child = await startGatewayChild({
        access: EMBEDDED_CREDENTIALS.accessKeyId,
        secret: EMBEDDED_CREDENTIALS.secretAccessKey,
        backend: { kind: 'posix', root },
        rdma: options.rdma === false ? false : rdma,
      });
      return new EmbeddedGateway(child, root);
    } catch (error) {
      await rm(root, { recursive: true, force: true });
      throw error;
    }
  }

  /** A path-style S3Client for this gateway; extra config merged over the defaults. */
  client(extra: Partial<S3ClientConfig> = {}): S3Client {
    return new S3Client({
      endpoint: this.endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: EMBEDDED_CREDENTIALS,
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      ...extra,
    });
  }

  async stop(): Promise<void> {
    await this.child.stop();
    await rm(this.root, { recursive: true, force: true });
  }
}
