// `npm start`'s last step, scripts/start.mjs: creates ./data in its working directory, starts the
// built gateway with the README's default credentials, prints an example `aws` command, and
// passes Ctrl-C (SIGINT) on so the gateway shuts down cleanly.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CreateBucketCommand, ListBucketsCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, makeTempDir, removeDir } from './helpers/gateway-process.js';
import { s3Client } from './helpers/s3-client.js';

const START = resolve(fileURLToPath(new URL('../../../scripts/start.mjs', import.meta.url)));
let cwd: string;

beforeAll(async () => {
  assertBuilt();
  cwd = await makeTempDir('vgwrdma-start-');
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

describe('scripts/start.mjs', () => {
  it('serves ./data with the default keys and stops on SIGINT with status 0', async () => {
    const child = spawn(process.execPath, [START], {
      cwd,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', VGW_PORT: '127.0.0.1:0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    process.once('exit', () => child.kill('SIGKILL'));
    const exited = new Promise<number | null>((done) => child.once('close', (code) => done(code)));
    let stdout = '';
    child.stdout.setEncoding('utf8');
    const endpoint = await new Promise<string>((done, fail) => {
      child.stdout.on('data', (chunk: string) => {
        stdout += chunk;
        const match = /aws --endpoint-url (http:\/\/\S+) s3 ls/.exec(stdout);
        if (match?.[1]) done(match[1]);
      });
      void exited.then((code) => fail(new Error(`start.mjs exited ${code} early:\n${stdout}`)));
    });
    expect(stdout).toMatch(/secret key:\s+vgwrdma-secret/);
    expect(stdout).toMatch(/rdma:\s+softnic on 127\.0\.0\.1/);
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
