// The upstream for the tests: a second gateway PROCESS — the built app (apps/vgwrdma/dist/main.js)
// serving the posix backend on a temp directory, on a free loopback port learnt from its banner.
// Tests talk to it through S3Backend exactly as a proxy gateway would. With BACKEND_S3_TEST_ENDPOINT
// set (plus _ACCESS, _SECRET, optional _REGION), the same suites run against that store instead
// (a Ceph RGW or MinIO: the optional target in docs/deployment.md).
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';

export const APP_MAIN = resolve(
  fileURLToPath(new URL('../../../apps/vgwrdma/dist/main.js', import.meta.url)),
);
export const UPSTREAM_CREDENTIALS = { access: 'upstream-access', secret: 'upstream-secret-key' } as const;

export interface UpstreamGateway {
  readonly endpoint: string;
  readonly access: string;
  readonly secret: string;
  readonly region: string;
  readonly root: string;
  /** A plain SDK client on the upstream (path-style), for set-up such as the meta bucket. */
  readonly client: S3Client;
  stop(): Promise<void>;
}

/** The external store named by BACKEND_S3_TEST_* variables, if any. */
function externalUpstream(): UpstreamGateway | undefined {
  const env = process.env;
  const endpoint = env.BACKEND_S3_TEST_ENDPOINT;
  if (!endpoint) return undefined;
  const access = env.BACKEND_S3_TEST_ACCESS ?? '';
  const secret = env.BACKEND_S3_TEST_SECRET ?? '';
  const region = env.BACKEND_S3_TEST_REGION ?? 'us-east-1';
  const client = new S3Client({
    endpoint,
    region,
    forcePathStyle: true,
    credentials: { accessKeyId: access, secretAccessKey: secret },
  });
  return { endpoint, access, secret, region, root: '', client, stop: async () => client.destroy() };
}

export async function startUpstreamGateway(): Promise<UpstreamGateway> {
  const external = externalUpstream();
  if (external) return external;
  if (!existsSync(APP_MAIN)) throw new Error(`${APP_MAIN} is missing: build the app first (npm run build)`);
  const root = await mkdtemp(join(tmpdir(), 'backend-s3-upstream-'));
  const child = spawn(process.execPath, [APP_MAIN, '--port', '127.0.0.1:0', '--quiet', 'posix', root], {
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      ROOT_ACCESS_KEY_ID: UPSTREAM_CREDENTIALS.access,
      ROOT_SECRET_ACCESS_KEY: UPSTREAM_CREDENTIALS.secret,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const { endpoint, stderr } = await bannerEndpoint(child);
  let stopping = false;
  // An upstream that dies mid-suite fails every later case with ECONNREFUSED: say why, once.
  child.once('close', (code, signal) => {
    if (!stopping) console.error(`upstream gateway exited (${code ?? signal}):\n${stderr().slice(-4000)}`);
  });
  const client = new S3Client({
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: UPSTREAM_CREDENTIALS.access, secretAccessKey: UPSTREAM_CREDENTIALS.secret },
  });
  return {
    endpoint,
    access: UPSTREAM_CREDENTIALS.access,
    secret: UPSTREAM_CREDENTIALS.secret,
    region: 'us-east-1',
    root,
    client,
    stop: async () => {
      client.destroy();
      process.off('exit', killOnExit);
      stopping = true;
      if (child.exitCode === null && child.signalCode === null) {
        const closed = new Promise((r) => child.once('close', r));
        child.kill('SIGTERM');
        await closed;
      }
      await rm(root, { recursive: true, force: true });
    },
  };
}

/** Resolves with the `endpoint:` URL of the banner; rejects if the process exits first. */
function bannerEndpoint(child: ChildProcess): Promise<{ endpoint: string; stderr: () => string }> {
  let stdout = '';
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (c: string) => {
    stderr += c;
  });
  return new Promise((resolvePromise, reject) => {
    child.stdout?.setEncoding('utf8').on('data', (c: string) => {
      stdout += c;
      const m = /^\s*endpoint:\s+(http:\/\/\S+)$/m.exec(stdout);
      if (m?.[1]) resolvePromise({ endpoint: m[1], stderr: () => stderr });
    });
    child.once('close', (code, signal) =>
      reject(new Error(`upstream gateway exited (${code ?? signal}) before its banner:\n${stderr}`)),
    );
  });
}

/** Creates a meta bucket named `<prefix>-<random>` (unique on a shared external store). */
export async function createMetaBucket(up: UpstreamGateway, prefix: string): Promise<string> {
  const name = `${prefix}-${Math.random().toString(36).slice(2, 8)}`;
  await up.client.send(new CreateBucketCommand({ Bucket: name }));
  return name;
}
