// `npm run install:clone` (scripts/install-from-clone.mjs), the one command docs/installing.md and
// the READMEs give for installing from a clone until the packages are on the public registry, run
// as a user runs it: `npm run` in the clone, by a fresh user whose npm knows only a registry on
// loopback (Verdaccio: third-party packages proxied, none of ours there, so anything of ours that
// install:clone failed to bring would fail with E404), into that user's global prefix and an app
// folder outside the workspace. Then the installed commands are used: the global `vgwrdma` serves
// a posix root with RDMA on 127.0.0.1, the global `cuobjtest` verifies an RDMA round trip against
// it, and an app importing the installed @vgwrdma/cuobjclient moves 8 MiB by RDMA. Wrong
// invocations fail with exit status 2 and a message naming the mistake, installing nothing.
// The tarballs come from the run's shared release pack (`--from`), which the registry rehearsal
// (used-by.e2e.test.ts) also installs: packing twice would double the longest step.
import { execFile } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { killAllChildren, REPO_ROOT, removeDir } from '@vgwrdma/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectInstalledCuobjtest,
  RDMA_ROUND_TRIP,
  runAppFixture,
  serveInstalledVgwrdma,
} from './installed-use.js';
import { koffiCopies } from './koffi-copies.js';
import { NpmUser } from './npm-user.js';
import { type Registry, startRegistry } from './registry.js';
import type { Served } from './served.js';
import { type ReleasePack, sharedReleasePack } from './shared-pack.js';

const run = promisify(execFile);
const KEYS = { AWS_ACCESS_KEY_ID: 'clone-access', AWS_SECRET_ACCESS_KEY: 'clone-secret-0123456789' };
const MINUTES = 60_000;

let registry: Registry | undefined;
let user: NpmUser | undefined;
let pack: ReleasePack;
let installs: { global: Promise<string>; app: Promise<string> };
let gateway: Served | undefined;

interface Ran {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** `npm run install:clone <npmArgs> -- <args>` in the clone, as `who`; never rejects. */
async function installClone(
  who: NpmUser,
  args: readonly string[],
  npmArgs: readonly string[] = [],
): Promise<Ran> {
  const argv = ['run', 'install:clone', ...npmArgs, ...(args.length > 0 ? ['--', ...args] : [])];
  try {
    const { stdout, stderr } = await run('npm', argv, {
      cwd: REPO_ROOT,
      env: who.env,
      timeout: 8 * MINUTES,
      maxBuffer: 16 << 20,
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code?: number | string; stdout?: string; stderr?: string; message: string };
    return {
      code: typeof e.code === 'number' ? e.code : -1,
      stdout: e.stdout ?? '',
      stderr: `${e.message}\n${e.stderr ?? ''}`,
    };
  }
}

/** A successful install:clone, or a rejection with everything it printed. */
async function installed(args: readonly string[]): Promise<string> {
  const r = await installClone(user as NpmUser, args);
  if (r.code !== 0)
    throw new Error(`npm run install:clone -- ${args.join(' ')} exited ${r.code}:\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

beforeAll(async () => {
  registry = await startRegistry();
  user = await NpmUser.create({ registry: registry.url });
  pack = await sharedReleasePack();
  const app = join(user.home, 'app');
  installs = {
    global: installed(['-g', '--from', pack.dir]),
    app: installed(['--app', app, '--from', pack.dir, '@vgwrdma/cuobjclient', '@aws-sdk/client-s3']).then(
      () => app,
    ),
  };
  // A failed install fails the tests that need it, not this hook.
  for (const p of Object.values(installs)) p.catch(() => undefined);
}, 10 * MINUTES);

afterAll(async () => {
  await gateway?.stop().catch(() => undefined);
  killAllChildren();
  await registry?.stop();
  if (user) await removeDir(user.home);
}, MINUTES);

/** The globally installed vgwrdma on a fresh posix root, RDMA by softnic on 127.0.0.1. */
async function installedGateway(): Promise<Served> {
  if (gateway) return gateway;
  await installs.global;
  const u = user as NpmUser;
  const root = await u.folder('posix-root');
  gateway = await serveInstalledVgwrdma(u, root, KEYS);
  return gateway;
}

/** The shim libraries a process has mapped, from /proc/<pid>/maps. */
async function mappedShims(pid: number): Promise<string[]> {
  const maps = await readFile(`/proc/${pid}/maps`, 'utf8');
  const paths = maps.split('\n').map((line) => line.slice(line.indexOf('/')));
  return [...new Set(paths.filter((p) => p.endsWith('/libvgwrdma_shims.so')))];
}

describe('npm run install:clone -- -g (the commands, globally)', () => {
  it(
    'installs vgwrdma and cuobjtest with one koffi; vgwrdma serves RDMA from the installed native package',
    async () => {
      const printed = await installs.global;
      const u = user as NpmUser;
      // The one npm command it ran: our tarballs only, this platform's native package among them.
      const platform = `vgwrdma-native-shims-${process.platform}-${process.arch}-`;
      expect(printed).toMatch(/^npm install -g .*\.tgz/m);
      expect(printed).toContain(platform);
      const lib = join(u.prefix, 'lib', 'node_modules');
      expect(await readdir(lib)).toEqual(expect.arrayContaining(['vgwrdma', '@vgwrdma']));
      expect((await koffiCopies(lib)).map((c) => c.version)).toEqual(['3.3.4']);
      const served = await installedGateway();
      const shims = await mappedShims(served.pid);
      expect(shims, served.stderr()).toHaveLength(1);
      expect(shims[0]?.startsWith(`${lib}/`), `${shims[0]} is not under ${lib}`).toBe(true);
    },
    10 * MINUTES,
  );

  it(
    'the installed cuobjtest verifies an 8 MiB PUT and GET by RDMA against the installed vgwrdma',
    async () => {
      await expectInstalledCuobjtest(user as NpmUser, await installedGateway(), 'clone-cuobjtest', KEYS);
    },
    10 * MINUTES,
  );
});

describe('npm run install:clone -- --app DIR @vgwrdma/cuobjclient @aws-sdk/client-s3', () => {
  it(
    'an app importing the installed cuobjclient moves 8 MiB up and down by RDMA, bytes equal',
    async () => {
      const u = user as NpmUser;
      const app = await installs.app;
      const manifest = JSON.parse(await readFile(join(app, 'package.json'), 'utf8')) as {
        dependencies?: Record<string, string>;
      };
      expect(Object.keys(manifest.dependencies ?? {})).toEqual(
        expect.arrayContaining(['@vgwrdma/cuobjclient', '@aws-sdk/client-s3']),
      );
      expect((await koffiCopies(join(app, 'node_modules'))).map((c) => c.version)).toEqual(['3.3.4']);
      const served = await installedGateway();
      const env = { ...KEYS, S3_ENDPOINT: served.endpoint, S3_BUCKET: 'clone-app' };
      const stdout = await runAppFixture(u, app, 'app.mjs', env);
      expect(JSON.parse(stdout), served.stderr()).toEqual({ module: 'esm', ...RDMA_ROUND_TRIP });
    },
    10 * MINUTES,
  );
});

describe('a wrong invocation of install:clone', () => {
  // [what the user typed after `npm run`, the message naming the mistake]
  const cases: ReadonlyArray<readonly [readonly string[], readonly string[], RegExp]> = [
    [[], [], /give -g or --app DIR/],
    [['-g'], ['--bogus'], /unknown flag --bogus/],
    [[], ['--app'], /--app needs a directory/],
    [[], ['-g', '--app', '/tmp/x'], /give -g or --app DIR \(one of them\)/],
    [[], ['-g', '@vgwrdma/no-such-package'], /@vgwrdma\/no-such-package is no publishable package/],
    [[], ['-g', '--from', '/nonexistent/release'], /--from \/nonexistent\/release: no such folder/],
    // The options before `--`: npm keeps -g for itself and the script sees no target.
    [['-g'], [], /npm took -g for itself: put the options after --/],
  ];

  it(
    'exits 2 with a message naming the mistake, and installs nothing',
    async () => {
      const who = await NpmUser.create({ registry: (registry as Registry).url });
      try {
        for (const [npmArgs, args, message] of cases) {
          const typed = `npm run ${['install:clone', ...npmArgs, ...(args.length ? ['--', ...args] : [])].join(' ')}`;
          const r = await installClone(who, args, npmArgs);
          expect(r.code, `${typed}\n${r.stdout}\n${r.stderr}`).toBe(2);
          expect(r.stderr, typed).toMatch(/^install:clone: /m);
          expect(r.stderr, typed).toMatch(message);
        }
        expect(await readdir(join(who.prefix, 'lib')).catch(() => [])).toEqual([]);
      } finally {
        await removeDir(who.home);
      }
    },
    10 * MINUTES,
  );
});
