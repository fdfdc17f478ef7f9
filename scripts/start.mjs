// `npm start` (after install + build, through scripts/run.sh): serve ./data with the posix backend
// on 127.0.0.1:7070, with the README's default credentials unless ROOT_ACCESS_KEY_ID /
// ROOT_SECRET_ACCESS_KEY are set. Those keys are public, so the default address is loopback only;
// VGW_PORT (or `npm start -- --port :7070`) opens it wider, and the gateway then warns on stderr
// while the secret is still a published or short one. Prints the endpoint, the keys and an example `aws` command once
// the gateway is up, and forwards SIGINT/SIGTERM so the gateway shuts down cleanly.
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = resolve(fileURLToPath(new URL('..', import.meta.url)));
const main = resolve(repo, 'apps/vgwrdma/dist/main.js');
const { DEFAULT_CREDENTIALS, START_ADDRESS } = await import(resolve(repo, 'apps/vgwrdma/dist/index.js'));

const dataDir = resolve(process.cwd(), 'data');
mkdirSync(dataDir, { recursive: true });

const access = process.env.ROOT_ACCESS_KEY_ID ?? process.env.ROOT_ACCESS_KEY ?? DEFAULT_CREDENTIALS.access;
const secret =
  process.env.ROOT_SECRET_ACCESS_KEY ?? process.env.ROOT_SECRET_KEY ?? DEFAULT_CREDENTIALS.secret;
const port = process.env.VGW_PORT ?? START_ADDRESS;

// RDMA on by default (softnic on 127.0.0.1: clients on this host), unless --rdma-ip or
// VGW_RDMA_IP says otherwise.
const extra = process.argv.slice(2);
const rdmaGiven = extra.some((a) => a === '--rdma-ip' || a.startsWith('--rdma-ip='));
const rdma = rdmaGiven || process.env.VGW_RDMA_IP !== undefined ? [] : ['--rdma-ip', '127.0.0.1'];
// Extra arguments to `npm start -- ...` are global flags, placed before the backend.
const args = [main, '--port', port, ...rdma, ...extra, 'posix', dataDir];
// Its own process group: a terminal's Ctrl-C reaches only this script, which forwards it once,
// so the gateway sees one signal (graceful) rather than two (which means "exit at once").
// The libuv pool carries every upload's hashing and file I/O; its size can only be set before
// node starts (4 by default): one thread per core here, 4 to 16, unless UV_THREADPOOL_SIZE is set.
const poolSize = process.env.UV_THREADPOOL_SIZE ?? String(Math.min(16, Math.max(4, availableParallelism())));
const child = spawn(process.execPath, args, {
  env: {
    ...process.env,
    ROOT_ACCESS_KEY_ID: access,
    ROOT_SECRET_ACCESS_KEY: secret,
    UV_THREADPOOL_SIZE: poolSize,
  },
  stdio: ['ignore', 'pipe', 'inherit'],
  detached: true,
});

let shown = false;
let pending = '';
child.stdout.on('data', (chunk) => {
  process.stdout.write(chunk);
  if (shown) return;
  pending += chunk.toString('utf8');
  const endpoint = /^\s*endpoint:\s+(\S+)/m.exec(pending)?.[1];
  if (endpoint === undefined) return;
  shown = true;
  const shownSecret = secret === DEFAULT_CREDENTIALS.secret ? secret : '<your secret>';
  process.stdout.write(
    [
      '',
      `Gateway on ${endpoint}, serving ${dataDir}`,
      `  access key: ${access}`,
      `  secret key: ${shownSecret}`,
      'Try it with the AWS CLI:',
      `  export AWS_ACCESS_KEY_ID=${access} AWS_SECRET_ACCESS_KEY=${shownSecret} AWS_DEFAULT_REGION=us-east-1`,
      `  aws --endpoint-url ${endpoint} s3 mb s3://demo`,
      `  aws --endpoint-url ${endpoint} s3 cp README.md s3://demo/`,
      `  aws --endpoint-url ${endpoint} s3 ls s3://demo`,
      'Press Ctrl-C to stop.',
      '',
    ].join('\n'),
  );
});

// npm and the terminal may both deliver one Ctrl-C; a repeat within a second is that same
// keypress. A later one is forwarded too, and the gateway then exits without waiting.
let firstSignalAt = 0;
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    const now = Date.now();
    if (firstSignalAt !== 0 && now - firstSignalAt < 1000) return;
    if (firstSignalAt === 0) firstSignalAt = now;
    if (child.exitCode === null && child.signalCode === null)
      child.kill(signal === 'SIGHUP' ? 'SIGTERM' : signal);
  });
}
process.on('exit', () => {
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

child.on('exit', (code, signal) => {
  process.exit(code ?? (signal ? 1 : 0));
});
