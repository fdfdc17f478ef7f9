// A gateway scene described by data: the built gateway on posix with the given users (users.json
// in an --iam-dir), a --versioning-dir, RDMA (softnic) and any other flags, its buckets created,
// and S3 clients and AWS CLI runners for its accounts. stop() destroys the clients, stops the
// gateway and removes every folder the scene made. The vitest fixtures of
// `@vgwrdma/test-kit/scene` are built on this; tests that start a gateway inside a test call it
// directly.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { CreateBucketCommand, type S3Client, type S3ClientConfig } from '@aws-sdk/client-s3';
import { type AwsRunner, awsCli } from './aws-cli.js';
import { killAllChildren } from './child-registry.js';
import {
  type Credentials,
  type GatewayProcess,
  ROOT_CREDENTIALS,
  type StartOptions,
  startGateway,
} from './gateway-process.js';
import { type IamUser, writeUsers } from './iam-users.js';
import { rdmaEnv } from './rdma-gateway.js';
import { s3Client } from './s3-client.js';
import { makeTempDir, removeDir } from './temp-dir.js';

/** RDMA on the scene's gateway: softnic on `ip` (default 127.0.0.1), VGWRDMA_SHIM_DIR passed on. */
export interface SceneRdma {
  readonly ip?: string;
}

export interface SceneOptions<U extends string = string> {
  /** users.json accounts by name (an --iam-dir); the root account is the gateway's own. */
  readonly users?: Readonly<Record<U, IamUser>>;
  /** An --iam-dir even without users (a test writes users.json later). Implied by `users`. */
  readonly iam?: boolean;
  /** Give the posix backend a --versioning-dir. */
  readonly versioning?: boolean;
  /** RDMA on: `--rdma-ip` (127.0.0.1 for `true`) and the shim environment. */
  readonly rdma?: boolean | SceneRdma;
  /** More flags before the backend command. */
  readonly globalArgs?: readonly string[];
  /** More flags of the posix command, before the root. */
  readonly posixArgs?: readonly string[];
  /** Extra environment of the gateway process. */
  readonly env?: Readonly<Record<string, string>>;
  /** The root account; ROOT_CREDENTIALS when omitted. */
  readonly credentials?: Credentials;
  /** The posix root, prepared by the test (a fresh temp directory when omitted); stop() removes it. */
  readonly root?: string;
  /** Buckets the root account creates before the scene is handed over. */
  readonly buckets?: readonly string[];
  /** SDK settings merged over s3Client's for every client of the scene. */
  readonly sdk?: Partial<S3ClientConfig>;
}

/**
 * The options, or a function giving them from the scene's own folder (called once, when the scene
 * starts): for paths the flags name (`--access-log ${dir}/access.log`) and values made first.
 */
export type SceneSource<U extends string = string> =
  | SceneOptions<U>
  | ((dir: string) => SceneOptions<U> | Promise<SceneOptions<U>>);

export interface Scene<U extends string = string> {
  readonly gw: GatewayProcess;
  /** The gateway's endpoint (http://127.0.0.1:port). */
  readonly url: string;
  /** The posix root. */
  readonly root: string;
  /** The scene's own folder (iam/, versions/, aws-N/ for the AWS CLI; the test may add files). */
  readonly dir: string;
  /** The --iam-dir (users.json), when the scene has one. */
  readonly iamDir: string | undefined;
  /** The --versioning-dir, when the scene has one. */
  readonly versionDir: string | undefined;
  /** The root account. */
  readonly credentials: Credentials;
  /** The users by name, as given. */
  readonly users: Readonly<Record<U, IamUser>>;
  /** An S3 client for the root account (with the scene's `sdk` settings). */
  readonly s3: S3Client;
  /** An S3 client for these credentials (root when omitted), destroyed by stop(). */
  client(who?: Credentials, extra?: Partial<S3ClientConfig>): S3Client;
  /** An AWS CLI runner for these credentials (root when omitted); throws without an aws binary. */
  aws(who?: Credentials): Promise<AwsRunner>;
  /** Replaces users.json, as another gateway or an operator would (scenes with an --iam-dir). */
  writeUsers(users: readonly IamUser[]): Promise<void>;
  /** Destroys the clients, stops the gateway, kills tracked children, removes the folders. */
  stop(): Promise<void>;
}

function gatewayOptions(options: SceneOptions, iamDir?: string, versionDir?: string): StartOptions {
  const rdma = options.rdma === true ? {} : options.rdma || undefined;
  return {
    ...(options.root === undefined ? {} : { root: options.root }),
    ...(options.credentials === undefined ? {} : { credentials: options.credentials }),
    globalArgs: [
      ...(iamDir === undefined ? [] : ['--iam-dir', iamDir]),
      ...(rdma === undefined ? [] : ['--rdma-ip', rdma.ip ?? '127.0.0.1']),
      ...(options.globalArgs ?? []),
    ],
    posixArgs: [
      ...(versionDir === undefined ? [] : ['--versioning-dir', versionDir]),
      ...(options.posixArgs ?? []),
    ],
    env: { ...(rdma === undefined ? {} : rdmaEnv()), ...options.env },
  };
}

export async function startScene<U extends string = never>(source: SceneSource<U> = {}): Promise<Scene<U>> {
  const dir = await makeTempDir('vgwrdma-scene-');
  let options: SceneOptions<U>;
  try {
    options = typeof source === 'function' ? await source(dir) : source;
  } catch (err) {
    await removeDir(dir);
    throw err;
  }
  const users = (options.users ?? {}) as Readonly<Record<U, IamUser>>;
  const iamDir = options.users !== undefined || options.iam ? join(dir, 'iam') : undefined;
  const versionDir = options.versioning ? join(dir, 'versions') : undefined;
  let gw: GatewayProcess;
  try {
    if (iamDir !== undefined) {
      await mkdir(iamDir);
      await writeUsers(iamDir, Object.values<IamUser>(users));
    }
    if (versionDir !== undefined) await mkdir(versionDir);
    gw = await startGateway(gatewayOptions(options, iamDir, versionDir));
  } catch (err) {
    await removeDir(dir);
    throw err;
  }
  const credentials = options.credentials ?? ROOT_CREDENTIALS;
  const clients: S3Client[] = [];
  const client = (who: Credentials = credentials, extra: Partial<S3ClientConfig> = {}): S3Client => {
    const c = s3Client(gw.url, who, { ...options.sdk, ...extra });
    clients.push(c);
    return c;
  };
  let awsConfigs = 0;
  const s3 = client();
  const scene: Scene<U> = {
    gw,
    url: gw.url,
    root: gw.root,
    dir,
    iamDir,
    versionDir,
    credentials,
    users,
    s3,
    client,
    async aws(who = credentials) {
      const workDir = join(dir, `aws-${awsConfigs++}`);
      await mkdir(workDir);
      return awsCli({ endpoint: gw.url, ...who, workDir });
    },
    async writeUsers(list) {
      if (iamDir === undefined) throw new Error('this scene has no --iam-dir (give it users or iam: true)');
      await writeUsers(iamDir, list);
    },
    async stop() {
      for (const c of clients) c.destroy();
      await gw.stop();
      killAllChildren();
      await removeDir(dir);
      await removeDir(gw.root);
    },
  };
  try {
    for (const Bucket of options.buckets ?? []) await s3.send(new CreateBucketCommand({ Bucket }));
  } catch (err) {
    await scene.stop();
    throw err;
  }
  return scene;
}
