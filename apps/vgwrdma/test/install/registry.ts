// A real npm registry on loopback for the install tests: Verdaccio in a child process, with a
// temp storage folder and a config where `vgwrdma` and `@vgwrdma/*` are local only (publishing
// needs a throw-away user this module creates; nothing is fetched from or sent upstream for
// them) and every other package is proxied from the public npm registry.
import { type ChildProcess, spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { collectOutput, exitOf, makeTempDir, removeDir, track } from '@vgwrdma/test-kit';

const UPSTREAM = 'https://registry.npmjs.org/';
const VERDACCIO_BIN = join(
  createRequire(import.meta.url).resolve('verdaccio/package.json'),
  '..',
  'bin',
  'verdaccio',
);

export interface Registry {
  /** `http://127.0.0.1:<port>/`, with the trailing slash npm writes in its config. */
  readonly url: string;
  /** Bearer token of the throw-away publishing user. */
  readonly token: string;
  /** Verdaccio's own log lines, for failure messages. */
  log(): string;
  stop(): Promise<void>;
}

function config(dir: string, port: number): string {
  // Local-only entries come before the catch-all: Verdaccio takes the first matching pattern.
  const local = 'access: $all\n    publish: $authenticated\n    unpublish: $authenticated';
  return `storage: ${join(dir, 'storage')}
auth:
  htpasswd:
    file: ${join(dir, 'htpasswd')}
    max_users: 10
uplinks:
  npmjs:
    url: ${UPSTREAM}
    timeout: 60s
    maxage: 30m
packages:
  'vgwrdma':
    ${local}
  '@vgwrdma/*':
    ${local}
  '**':
    access: $all
    publish: $authenticated
    proxy: npmjs
listen: 127.0.0.1:${port}
max_body_size: 200mb
log: { type: stdout, format: json, level: warn }
publish:
  allow_offline: true
`;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

async function waitForPing(url: string, child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`verdaccio exited (${child.exitCode}):\n${log()}`);
    try {
      if ((await fetch(`${url}-/ping`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`verdaccio did not answer /-/ping within 60 s:\n${log()}`);
}

/** Creates the publishing user the way `npm adduser` does, and returns its token. */
async function addUser(url: string): Promise<string> {
  const name = 'release-test';
  const res = await fetch(`${url}-/user/org.couchdb.user:${name}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name, password: 'throw-away-password', type: 'user', roles: [] }),
  });
  const body = (await res.json()) as { token?: string; error?: string };
  if (!res.ok || !body.token) throw new Error(`verdaccio refused the user (${res.status}): ${body.error}`);
  return body.token;
}

export async function startRegistry(): Promise<Registry> {
  const dir = await makeTempDir('vgwrdma-registry-');
  const port = await freePort();
  const configFile = join(dir, 'config.yaml');
  await writeFile(configFile, config(dir, port));
  const child = track(
    spawn(process.execPath, [VERDACCIO_BIN, '--config', configFile], {
      cwd: dir,
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
  const out = collectOutput(child);
  const exited = exitOf(child);
  const log = (): string => `${out.stdout()}${out.stderr()}`;
  const url = `http://127.0.0.1:${port}/`;
  try {
    await waitForPing(url, child, log);
    const token = await addUser(url);
    return {
      url,
      token,
      log,
      async stop() {
        if (child.exitCode === null) child.kill('SIGTERM');
        await exited;
        await removeDir(dir);
      },
    };
  } catch (err) {
    child.kill('SIGKILL');
    await removeDir(dir);
    throw err;
  }
}
