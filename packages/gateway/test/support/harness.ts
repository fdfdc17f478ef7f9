// Starts a gateway on 127.0.0.1:0 over a given backend and hands tests an S3Client
// (path-style) plus helpers for raw HTTP.
import { S3Client } from '@aws-sdk/client-s3';
import type { Backend } from '@vgwrdma/backend-contract';
import { staticCredentials } from '../../src/auth/index.js';
import { createGateway, type Gateway } from '../../src/create-gateway.js';
import type { GatewayOptions } from '../../src/gateway-options.js';
import type { RunningGateway } from '../../src/server/listen.js';

export const ACCESS = 'AKIDGATEWAYTEST';
export const SECRET = 'gateway/test+secret';
export const ADMIN_ACCESS = 'AKIDADMIN';
export const ADMIN_SECRET = 'admin-secret';

export interface TestGateway {
  gateway: Gateway;
  running: RunningGateway;
  url: string;
  client: S3Client;
  adminClient: S3Client;
  close(): Promise<void>;
}

export async function startGateway(
  backend: Backend,
  extra: Partial<Omit<GatewayOptions, 'backend' | 'credentials'>> = {},
): Promise<TestGateway> {
  const gateway = createGateway({
    backend,
    credentials: staticCredentials([
      // userplus: a plain `user` may not create buckets (versitygw's roles).
      { access: ACCESS, secret: SECRET, account: { role: 'userplus' } },
      { access: ADMIN_ACCESS, secret: ADMIN_SECRET, account: { role: 'admin' } },
    ]),
    region: 'us-east-1',
    ...extra,
  });
  const running = await gateway.listen({ port: 0, host: '127.0.0.1' });
  const client = s3Client(running.url, ACCESS, SECRET);
  const adminClient = s3Client(running.url, ADMIN_ACCESS, ADMIN_SECRET);
  return {
    gateway,
    running,
    url: running.url,
    client,
    adminClient,
    close: async () => {
      client.destroy();
      adminClient.destroy();
      await running.close();
    },
  };
}

export function s3Client(endpoint: string, accessKeyId: string, secretAccessKey: string): S3Client {
  return new S3Client({
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId, secretAccessKey },
    maxAttempts: 1,
  });
}

/** Reads a fetch Response's error document into its fields. */
export async function errorOf(
  res: Response,
): Promise<{ status: number; code?: string; message?: string; body: string }> {
  const body = await res.text();
  const code = /<Code>([^<]*)<\/Code>/.exec(body)?.[1];
  const message = /<Message>([^<]*)<\/Message>/.exec(body)?.[1];
  return { status: res.status, body, ...(code ? { code } : {}), ...(message ? { message } : {}) };
}
