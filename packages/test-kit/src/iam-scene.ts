// The built gateway on posix with --iam-dir holding the given users (and, on request, a
// --versioning-dir), plus an S3 client per user: the setup the access-control, ACL and
// authorization e2e tests share. A startScene (gateway-scene.ts) with users; stop() destroys the
// clients, stops the gateway and removes every folder it made.
import type { S3Client } from '@aws-sdk/client-s3';
import { killAllChildren } from './child-registry.js';
import type { Credentials, GatewayProcess } from './gateway-process.js';
import { startScene } from './gateway-scene.js';
import type { IamUser } from './iam-users.js';

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
  const scene = await startScene({
    ...options,
    users: Object.fromEntries(options.users.map((u) => [u.access, u])),
  });
  return {
    gw: scene.gw,
    iamDir: scene.iamDir as string,
    client: (user) => scene.client(user),
    writeUsers: scene.writeUsers,
    async stop() {
      await scene.stop();
      killAllChildren();
    },
  };
}
