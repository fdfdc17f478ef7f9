// The built gateway on posix with --iam-dir holding the given users (and, on request, a
// --versioning-dir), plus an S3 client per user: the setup the access-control, ACL and
// authorization e2e tests share. stop() destroys the clients, stops the gateway and removes
// every folder it made.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { S3Client } from '@aws-sdk/client-s3';
import { killAllChildren } from './child-registry.js';
import { type Credentials, type GatewayProcess, startGateway } from './gateway-process.js';
import { type IamUser, writeUsers } from './iam-users.js';
import { s3Client } from './s3-client.js';
import { makeTempDir, removeDir } from './temp-dir.js';

export interface IamSceneOptions {
  /** The accounts of users.json (the root account is the gateway's own). */
  readonly users: readonly IamUser[];
  /** Also give the posix backend a --versioning-dir. */
  readonly versioning?: boolean;
  /** More flags before the backend command. */
  readonly globalArgs?: readonly string[];
  /** The posix root, prepared by the test (a fresh temp directory when omitted); stop() removes it. */
  readonly root?: string;
}

export interface IamScene {
  readonly gw: GatewayProcess;
  /** The --iam-dir folder (users.json). */
  readonly iamDir: string;
  /** An S3 client for these credentials (a user's, or ROOT_CREDENTIALS), destroyed by stop(). */
  client(user: Credentials): S3Client;
  /** Replaces users.json, as another gateway or an operator would. */
  writeUsers(users: readonly IamUser[]): Promise<void>;
  stop(): Promise<void>;
}

export async function startIamScene(options: IamSceneOptions): Promise<IamScene> {
  const dir = await makeTempDir('vgwrdma-iam-scene-');
  const iamDir = join(dir, 'iam');
  const versionDir = join(dir, 'versions');
  await mkdir(iamDir);
  if (options.versioning) await mkdir(versionDir);
  await writeUsers(iamDir, options.users);
  let gw: GatewayProcess;
  try {
    gw = await startGateway({
      globalArgs: ['--iam-dir', iamDir, ...(options.globalArgs ?? [])],
      ...(options.root === undefined ? {} : { root: options.root }),
      posixArgs: options.versioning ? ['--versioning-dir', versionDir] : [],
    });
  } catch (err) {
    await removeDir(dir);
    throw err;
  }
  const clients: S3Client[] = [];
  return {
    gw,
    iamDir,
    client(user) {
      const c = s3Client(gw.url, user);
      clients.push(c);
      return c;
    },
    writeUsers: (users) => writeUsers(iamDir, users),
    async stop() {
      for (const c of clients) c.destroy();
      await gw.stop();
      killAllChildren();
      await removeDir(dir);
      await removeDir(gw.root);
    },
  };
}
