// A gateway over the posix backend with an IamStore: root (admin) plus two users stored in
// users.json with role userplus (they may create buckets; a plain `user` may not), each with its
// own S3Client.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { S3Client } from '@aws-sdk/client-s3';
import { PosixBackend } from '@vgwrdma/backend-posix';
import { createGateway } from '../../src/create-gateway.js';
import type { GatewayOptions } from '../../src/gateway-options.js';
import { IamStore } from '../../src/iam/index.js';
import type { RunningGateway } from '../../src/server/listen.js';
import { s3Client } from './harness.js';

export const ROOT = { access: 'ROOTKEY', secret: 'root-secret' };
export const ALICE = { access: 'ALICEKEY', secret: 'alice-secret' };
export const BOB = { access: 'BOBKEY', secret: 'bob-secret' };

export interface MultiUserGateway {
  url: string;
  iamDir: string;
  iam: IamStore;
  running: RunningGateway;
  root: S3Client;
  alice: S3Client;
  bob: S3Client;
  close(): Promise<void>;
}

export async function startMultiUser(
  extra: Partial<Omit<GatewayOptions, 'backend' | 'credentials' | 'iam'>> = {},
  opts: { versioning?: boolean } = {},
): Promise<MultiUserGateway> {
  const dir = await mkdtemp(join(tmpdir(), 'gw-authz-'));
  const backend = await PosixBackend.open({
    root: join(dir, 'data'),
    ...(opts.versioning ? { versioningDir: join(dir, 'versions') } : {}),
  });
  const iamDir = join(dir, 'iam');
  const iam = await IamStore.open({ root: ROOT, dir: iamDir });
  for (const u of [ALICE, BOB])
    await iam.createUser({ ...u, role: 'userplus', userID: 0, groupID: 0, projectID: 0 });
  const running = await createGateway({ backend, iam, ...extra }).listen({ port: 0, host: '127.0.0.1' });
  const clients = [ROOT, ALICE, BOB].map((u) => s3Client(running.url, u.access, u.secret));
  const [root, alice, bob] = clients as [S3Client, S3Client, S3Client];
  return {
    url: running.url,
    iamDir,
    iam,
    running,
    root,
    alice,
    bob,
    close: async () => {
      for (const c of clients) c.destroy();
      await running.close();
      await backend.shutdown();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** The S3 error name of a failed SDK call ('' when it succeeded). */
export async function errorName(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return '';
  } catch (err) {
    return (err as { name?: string }).name ?? 'Error';
  }
}
