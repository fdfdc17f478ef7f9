// The upstream for the tests: a second gateway PROCESS — the built app (apps/vgwrdma/dist/main.js)
// serving the posix backend on a temp directory, on a free loopback port learnt from its banner.
// Tests talk to it through S3Backend exactly as a proxy gateway would.
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
  readonly root: string;
  /** A plain SDK client on the upstream (path-style), for set-up such as the meta bucket. */
  readonly client: S3Client;
  stop(): Promise<void>;
}

export async function startUpstreamGateway(): Promise<UpstreamGateway> {
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

export async function createMetaBucket(up: UpstreamGateway, name: string): Promise<void> {
  await up.client.send(new CreateBucketCommand({ Bucket: name }));
}
