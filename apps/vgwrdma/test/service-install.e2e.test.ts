// The service install of deploy/: deploy/install.sh (the install steps deploy/Dockerfile runs)
// installs the built gateway into a temp prefix; `systemd-analyze verify` checks the unit
// pointed at that prefix; the installed command starts with the example env file's variables the
// way the unit's ExecStart does, answers its probes, survives the unit's ExecReload (SIGHUP) and
// stops cleanly on SIGTERM; the container's healthcheck command follows the liveness path.
// Not run here (no container runtime): `docker build` itself and the container's user switch.
import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { join } from 'node:path';
import {
  collectOutput,
  exitOf,
  killAllChildren,
  makeTempDir,
  REPO_ROOT,
  removeDir,
  track,
  waitForStdout,
} from '@vgwrdma/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const DEPLOY = join(REPO_ROOT, 'deploy');
const SYSTEMD_ANALYZE = ['/usr/bin/systemd-analyze', '/bin/systemd-analyze'].find((p) => existsSync(p));
if (SYSTEMD_ANALYZE === undefined) {
  // .ci/run does not install it: Debian's systemd package is far heavier than this one check.
  console.warn(
    'service-install: systemd-analyze verify skipped: no systemd-analyze (apt-get install systemd)',
  );
}

interface Ran {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

function run(file: string, args: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<Ran> {
  return new Promise((resolve) => {
    execFile(file, [...args], { env, encoding: 'utf8', maxBuffer: 1 << 24 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
      resolve({ code, stdout, stderr });
    });
  });
}

/** KEY=value lines of an EnvironmentFile (comments and blanks skipped), as systemd reads them. */
function parseEnvFile(text: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const m = /^([A-Z_][A-Z0-9_]*)=(.*)$/.exec(line.trim());
    if (m?.[1] !== undefined) env[m[1]] = m[2] ?? '';
  }
  return env;
}

function status(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.once('error', reject);
    req.end();
  });
}

let work: string;
let prefix: string;
let installStderr = '';

beforeAll(async () => {
  work = await makeTempDir('vgwrdma-install-');
  prefix = join(work, 'opt', 'vgwrdma');
  const installed = await run(join(DEPLOY, 'install.sh'), ['--no-build', prefix]);
  if (installed.code !== 0) throw new Error(`install.sh exited ${installed.code}:\n${installed.stderr}`);
  expect(installed.stdout).toContain(`installed vgwrdma into ${prefix}`);
  installStderr = installed.stderr;
}, 300_000);
afterAll(async () => {
  killAllChildren();
  await removeDir(work);
});

/** The unit with /opt/vgwrdma and the env file moved to this test's prefix. */
async function unitAt(installPrefix: string, name: string): Promise<string> {
  const unit = await readFile(join(DEPLOY, 'systemd', 'vgwrdma.service'), 'utf8');
  const path = join(work, name);
  await writeFile(
    path,
    unit
      .replaceAll('/opt/vgwrdma', installPrefix)
      .replaceAll('/etc/vgwrdma/vgwrdma.env', join(work, 'vgwrdma.env')),
  );
  return path;
}

describe('deploy/: service install', { timeout: 120_000 }, () => {
  it('is quiet about peer dependencies on a correct install (no ✕ missing/unmet peer)', () => {
    expect(installStderr).not.toMatch(/✕|missing peer|unmet peer/);
  });

  it('installs the command, the shim library and the healthcheck', () => {
    for (const file of [
      'bin/vgwrdma',
      'bin/vgwrdma-healthcheck',
      'lib/libvgwrdma_shims.so',
      'app/dist/main.js',
      'app/bin/vgwrdma.cjs',
    ])
      expect(existsSync(join(prefix, file)), file).toBe(true);
    // Workspace packages are copied in, so the install does not depend on the repository.
    expect(existsSync(join(prefix, 'app/node_modules/@vgwrdma/gateway/dist/index.js'))).toBe(true);
  });

  it.skipIf(SYSTEMD_ANALYZE === undefined)(
    'the unit passes systemd-analyze verify without a warning (and a broken one does not)',
    async () => {
      const good = await run(SYSTEMD_ANALYZE as string, ['verify', await unitAt(prefix, 'vgwrdma.service')]);
      expect(good).toMatchObject({ code: 0, stderr: '' });
      const broken = await run(SYSTEMD_ANALYZE as string, [
        'verify',
        await unitAt(join(work, 'nowhere'), 'broken.service'),
      ]);
      expect(broken.code).not.toBe(0);
      expect(broken.stderr).toMatch(/is not executable/);
    },
  );

  it('starts as ExecStart does with the example env file, reloads on SIGHUP, stops on SIGTERM', async () => {
    const example = parseEnvFile(await readFile(join(DEPLOY, 'systemd', 'vgwrdma.env.example'), 'utf8'));
    expect(Object.keys(example)).toEqual(
      expect.arrayContaining([
        'ROOT_ACCESS_KEY_ID',
        'ROOT_SECRET_ACCESS_KEY',
        'VGW_ROOT',
        'VGW_PORT',
        'VGW_HEALTH',
        'VGW_READY',
      ]),
    );
    const root = join(work, 'state');
    await mkdir(root);
    const env = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      ...example,
      VGW_ROOT: root,
      VGW_PORT: '127.0.0.1:0',
    };
    const child = track(
      spawn(join(prefix, 'bin', 'vgwrdma'), ['posix', env.VGW_ROOT], {
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      }),
    );
    const out = collectOutput(child);
    const exited = exitOf(child);
    const url = await waitForStdout(child, out, exited, /^\s*endpoint:\s+(http:\/\/\S+)$/m, 'the banner');
    // The shim library comes from the install, not from the repository.
    expect(out.stderr()).toContain(`"path":"${join(prefix, 'lib', 'libvgwrdma_shims.so')}"`);
    expect(await status(`${url}${example.VGW_HEALTH}`)).toBe(200);
    expect(await status(`${url}${example.VGW_READY}`)).toBe(200);

    const port = new URL(url).port;
    const check = { PATH: env.PATH, VGW_PORT: `127.0.0.1:${port}`, VGW_HEALTH: example.VGW_HEALTH ?? '' };
    expect(await run(join(prefix, 'bin', 'vgwrdma-healthcheck'), [], check)).toMatchObject({ code: 0 });

    child.kill('SIGHUP');
    for (let i = 0; i < 200 && !out.stderr().includes('no --cert/--key to reload'); i++)
      await new Promise((resolve) => setTimeout(resolve, 25));
    expect(out.stderr()).toContain('no --cert/--key to reload');
    expect(await status(`${url}/health`)).toBe(200);

    child.kill('SIGTERM');
    expect(await exited).toEqual({ code: 0, signal: null });
    const down = await run(join(prefix, 'bin', 'vgwrdma-healthcheck'), [], check);
    expect(down.code).toBe(1);
    expect(down.stderr).toMatch(/ECONNREFUSED/);
  });

  it('the Dockerfile builds with install.sh and runs the installed command as a non-root user', async () => {
    const docker = await readFile(join(DEPLOY, 'Dockerfile'), 'utf8');
    const stages = docker.split(/^FROM /m).slice(1);
    expect(stages).toHaveLength(2);
    expect(stages[0]).toMatch(/^RUN deploy\/install\.sh \/opt\/vgwrdma$/m);
    const runtime = stages[1] ?? '';
    expect(runtime).toMatch(/^COPY --from=build \/opt\/vgwrdma \/opt\/vgwrdma$/m);
    expect(runtime).toMatch(/^USER vgwrdma:vgwrdma$/m);
    // A bind-mounted data directory must belong to the image's user: the header says which uid.
    expect(docker).toMatch(/owned by uid 10001[^\n]*\n#[^\n]*chown -R 10001:10001/);
    expect(runtime).toMatch(/^HEALTHCHECK [^\n]*\\\n\s+CMD \["\/opt\/vgwrdma\/bin\/vgwrdma-healthcheck"\]$/m);
    expect(runtime).toMatch(/^ENTRYPOINT \["\/opt\/vgwrdma\/bin\/vgwrdma"\]$/m);
    // What the image's ENV gives the healthcheck and the gateway, the installed command accepts.
    expect(runtime).toMatch(/VGW_HEALTH=\/health/);
  });
});
