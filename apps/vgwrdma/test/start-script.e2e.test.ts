// `npm start`'s last step, scripts/start.mjs: creates ./data in its working directory, starts the
// built gateway with the README's default credentials, prints an example `aws` command, and
// passes Ctrl-C (SIGINT) on so the gateway shuts down cleanly. With no VGW_PORT it serves
// loopback only (127.0.0.1:7070): the keys are published, so no other host may reach it.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { availableParallelism, networkInterfaces } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CreateBucketCommand, ListBucketsCommand } from '@aws-sdk/client-s3';
import { assertBuilt, makeTempDir, removeDir, s3Client } from '@vgwrdma/test-kit';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

const START = resolve(fileURLToPath(new URL('../../../scripts/start.mjs', import.meta.url)));
let cwd: string;

beforeAll(async () => {
  assertBuilt();
  cwd = await makeTempDir('vgwrdma-start-');
});
// A test that fails half-way must not leave a gateway behind (it runs in its own process group,
// so killing start.mjs alone would orphan it): SIGINT, which start.mjs forwards, then wait.
const stillRunning = new Set<{ kill(signal: NodeJS.Signals): boolean; exited: Promise<unknown> }>();
afterEach(async () => {
  for (const started of stillRunning) {
    started.kill('SIGINT');
    await started.exited;
  }
  stillRunning.clear();
});
afterAll(async () => {
  await removeDir(cwd);
});

/** The environment of the (one) child process of `pid`, from /proc. */
function childEnvironment(pid: number): Record<string, string> {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (ppid !== pid) continue;
    const pairs = readFileSync(`/proc/${entry}/environ`, 'utf8').split('\0').filter(Boolean);
    return Object.fromEntries(pairs.map((p) => [p.slice(0, p.indexOf('=')), p.slice(p.indexOf('=') + 1)]));
  }
  throw new Error(`no child of ${pid}`);
}

/** Starts start.mjs in `cwd` with `env`; resolves with the endpoint its example command names. */
async function startScript(env: Record<string, string>) {
  const child = spawn(process.execPath, [START], {
    cwd,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  process.once('exit', () => child.kill('SIGTERM'));
  const exited = new Promise<number | null>((done) => child.once('close', (code) => done(code)));
  const entry = { kill: (signal: NodeJS.Signals) => child.kill(signal), exited };
  stillRunning.add(entry);
  void exited.then(() => stillRunning.delete(entry));
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8');
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const endpoint = await new Promise<string>((done, fail) => {
    child.stdout.on('data', (chunk: string) => {
      stdout += chunk;
      const match = /aws --endpoint-url (http:\/\/\S+) s3 ls/.exec(stdout);
      if (match?.[1]) done(match[1]);
    });
    void exited.then((code) => fail(new Error(`start.mjs exited ${code} early:\n${stdout}${stderr}`)));
  });
  return { child, exited, endpoint, stdout: () => stdout, stderr: () => stderr };
}

/** Whether nothing listens on `port` on any address (so start.mjs can take it). */
function portFree(port: number): Promise<boolean> {
  return new Promise((done) => {
    const probe = createServer();
    probe.once('error', () => done(false));
    probe.listen(port, () => probe.close(() => done(true)));
  });
}

/** 'refused' when nothing accepts a connection on host:port, else 'accepted'. */
function dial(host: string, port: number): Promise<'accepted' | 'refused'> {
  return new Promise((done) => {
    const socket = connect(port, host);
    socket.setTimeout(5000, () => socket.destroy(new Error('timeout')));
    socket.once('connect', () => {
      socket.destroy();
      done('accepted');
    });
    socket.once('error', () => done('refused'));
  });
}

/** This machine's addresses other hosts could use (none on a loopback-only machine). */
function externalAddresses(): string[] {
  return Object.values(networkInterfaces())
    .flatMap((list) => list ?? [])
    .filter((a) => !a.internal && a.family === 'IPv4')
    .map((a) => a.address);
}

describe('scripts/start.mjs', () => {
  it("listens on 127.0.0.1:7070 only, unreachable on the machine's other addresses", async (ctx) => {
    if (!(await portFree(7070))) ctx.skip('port 7070 is in use on this machine');
    const started = await startScript({});
    expect(started.endpoint).toBe('http://127.0.0.1:7070');
    expect(started.stdout()).toMatch(/^\s+listening:\s+127\.0\.0\.1:7070$/m);
    expect(await dial('127.0.0.1', 7070)).toBe('accepted');
    for (const address of externalAddresses()) expect(await dial(address, 7070), address).toBe('refused');
    started.child.kill('SIGINT');
    expect(await started.exited).toBe(0);
    expect(started.stderr()).not.toMatch(/WARNING/);
  });

  it('opens wider only when VGW_PORT says so, and then warns that the keys are published', async () => {
    const started = await startScript({ VGW_PORT: ':0' });
    expect(started.stdout()).toMatch(/^\s+listening:\s+all interfaces, port \d+$/m);
    started.child.kill('SIGINT');
    expect(await started.exited).toBe(0);
    expect(started.stderr()).toMatch(
      /WARNING: listening on 0\.0\.0\.0, beyond this host, with a published default secret/,
    );
  });

  it('serves ./data with the default keys and stops on SIGINT with status 0', async () => {
    const { child, exited, endpoint, stdout } = await startScript({ VGW_PORT: '127.0.0.1:0' });
    expect(stdout()).toMatch(/secret key:\s+vgwrdma-secret/);
    expect(stdout()).toMatch(/rdma:\s+softnic on 127\.0\.0\.1/);
    expect(statSync(join(cwd, 'data')).isDirectory()).toBe(true);
    // The gateway (start.mjs's child) got a libuv pool sized to this machine: 4..16 threads.
    const gatewayEnv = childEnvironment(child.pid as number);
    expect(Number(gatewayEnv.UV_THREADPOOL_SIZE)).toBe(Math.min(16, Math.max(4, availableParallelism())));

    const client = s3Client(endpoint, { access: 'vgwrdma', secret: 'vgwrdma-secret' });
    await client.send(new CreateBucketCommand({ Bucket: 'from-start' }));
    const list = await client.send(new ListBucketsCommand({}));
    expect(list.Buckets?.map((b) => b.Name)).toEqual(['from-start']);
    client.destroy();
    expect(existsSync(join(cwd, 'data', 'from-start'))).toBe(true);

    child.kill('SIGINT');
    expect(await exited).toBe(0);
  });
});
