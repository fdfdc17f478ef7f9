// Issue 18's acceptance tests: the release published to a real registry (Verdaccio on loopback)
// and installed from it, in fresh folders outside the workspace, exactly as a user would — plain
// `npm install`, no tarball paths, no VGWRDMA_* variables, no repository build to fall back on:
//   1. an app (`npm install @vgwrdma/cuobjclient @aws-sdk/client-s3`, ESM and CommonJS) moving
//      8 MiB by RDMA against the npm-installed `vgwrdma` (posix, softnic on loopback);
//   2. a custom gateway of ~40 lines from cu-backend's README, the same round trip against it;
//   3. `vgwrdma --help`, `cuobjtest -help` from the global install, and that cuobjtest verifying
//      an RDMA round trip against that vgwrdma;
// and every runnable README example (```js example) executed against those installs. Issue 34
// adds the layouts that once broke native code: every install (global, npm, `pnpm add` with its
// isolated node_modules, an app that has its own koffi of another major version) holds exactly one
// koffi 3, and the pnpm and own-koffi apps make the same RDMA round trip.
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { killAllChildren, removeDir } from '@vgwrdma/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectInstalledCuobjtest,
  RDMA_ROUND_TRIP,
  runAppFixture,
  serveInstalledVgwrdma,
} from './installed-use.js';
import { koffiCopies } from './koffi-copies.js';
import { NpmUser } from './npm-user.js';
import { readmeExamples } from './readme-examples.js';
import { type Registry, startRegistry } from './registry.js';
import { type Published, publishRelease } from './release.js';
import { type Served, serve } from './served.js';

const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));
const KEYS = { AWS_ACCESS_KEY_ID: 'used-by-access', AWS_SECRET_ACCESS_KEY: 'used-by-secret-0123456789' };
const PLATFORM_PACKAGE = `@vgwrdma/native-shims-${process.platform}-${process.arch}`;
const MINUTES = 60_000;
/** pnpm as the README's pnpm users run it, pinned. */
const PNPM = ['--yes', 'pnpm@10.34.9'];
/** The koffi a user's app may already have: another major version than @vgwrdma/native's. */
const APP_KOFFI = 'koffi@2.12.4';

let registry: Registry | undefined;
let published: Published;
let user: NpmUser;
/** The three installs run at once (network-bound); each test awaits the one it needs. */
let installs: {
  global: Promise<void>;
  app: Promise<string>;
  customGateway: Promise<string>;
  pnpmApp: Promise<string>;
  ownKoffiApp: Promise<string>;
};
const started: Served[] = [];
const timings: Record<string, number> = {};

async function timed<T>(name: string, work: () => Promise<T>): Promise<T> {
  const t0 = Date.now();
  try {
    return await work();
  } finally {
    timings[name] = Date.now() - t0;
  }
}

/** `npm install <packages>` in a new folder of the user's home with a plain package.json. */
async function installIn(folder: string, packages: readonly string[], type = 'module'): Promise<string> {
  const dir = await user.folder(folder);
  await writeFile(join(dir, 'package.json'), JSON.stringify({ name: folder, private: true, type }));
  await user.npm(['install', ...packages], dir);
  return dir;
}

/** The npm-installed gateway app on a fresh posix root, RDMA by softnic on loopback. */
async function startInstalledVgwrdma(): Promise<Served> {
  await installs.global;
  const root = await user.folder(`root-${started.length}`);
  const served = await serveInstalledVgwrdma(user, root, KEYS);
  started.push(served);
  return served;
}

/**
 * The shim library a running gateway has mapped (from /proc/<pid>/maps): it must be the one of
 * the per-platform package inside `installRoot`, not anything of the workspace.
 */
async function expectPlatformLibrary(served: Served, installRoot: string): Promise<void> {
  const maps = await readFile(`/proc/${served.pid}/maps`, 'utf8');
  const mapped = new Set(
    maps
      .split('\n')
      .map((line) => line.slice(line.indexOf('/')))
      .filter((path) => path.endsWith('/libvgwrdma_shims.so')),
  );
  expect(mapped.size, `${[...mapped].join(', ')}\n${served.stderr()}`).toBe(1);
  const [path] = mapped;
  expect(path?.startsWith(join(installRoot, 'node_modules', PLATFORM_PACKAGE, '/'))).toBe(true);
}

function clientEnv(endpoint: string, bucket: string): NodeJS.ProcessEnv {
  return { ...KEYS, S3_ENDPOINT: endpoint, S3_BUCKET: bucket };
}

beforeAll(async () => {
  registry = await timed('registry start', startRegistry);
  published = await timed('release-pack + publish', () => publishRelease(registry as Registry));
  user = await NpmUser.create({ registry: registry.url });
  installs = {
    global: timed('npm install -g', () =>
      user.npm(['install', '-g', 'vgwrdma', '@vgwrdma/cuobjtest'], user.home).then(() => undefined),
    ),
    app: timed('app install', () => installIn('app', ['@vgwrdma/cuobjclient', '@aws-sdk/client-s3'])),
    customGateway: timed('custom gateway install', () =>
      installIn('custom-gateway', ['@vgwrdma/cu-backend', '@vgwrdma/gateway', '@vgwrdma/backend-posix']),
    ),
    pnpmApp: timed('pnpm add', async () => {
      const dir = await user.folder('pnpm-app');
      await writeFile(
        join(dir, 'package.json'),
        JSON.stringify({ name: 'pnpm-app', private: true, type: 'module' }),
      );
      await user.command(
        'npx',
        [...PNPM, 'add', '@vgwrdma/cuobjclient', '@aws-sdk/client-s3'],
        dir,
        {},
        300_000,
      );
      return dir;
    }),
    ownKoffiApp: timed('own-koffi app install', () =>
      installIn('own-koffi-app', [APP_KOFFI, '@vgwrdma/cuobjclient', '@aws-sdk/client-s3']),
    ),
  };
  // A failed install fails the tests that need it, not this hook.
  for (const p of Object.values(installs)) p.catch(() => undefined);
}, 10 * MINUTES);

afterAll(async () => {
  for (const served of started) await served.stop().catch(() => undefined);
  killAllChildren();
  await registry?.stop();
  if (user) await removeDir(user.home);
  console.log(`install tests, milliseconds: ${JSON.stringify(timings)}`);
  if (published) console.log(`tarballs, bytes: ${JSON.stringify(Object.fromEntries(published.tarballs))}`);
}, MINUTES);

describe('the release on a local registry', () => {
  it('has every package a user installs, the native one for this platform included', () => {
    for (const name of ['vgwrdma', '@vgwrdma/cuobjclient', '@vgwrdma/cuobjtest', '@vgwrdma/cu-backend']) {
      expect(published.packages.get(name), name).toMatch(/^\d+\.\d+\.\d+/);
    }
    expect(
      published.packages.get(PLATFORM_PACKAGE),
      `${PLATFORM_PACKAGE} was not published: release-pack wrote ${[...published.tarballs.keys()].join(', ')}`,
    ).toMatch(/^\d+\.\d+\.\d+/);
  });
});

describe('used by: npm install -g vgwrdma', () => {
  it(
    'vgwrdma --help and cuobjtest -help run from the global install',
    async () => {
      await installs.global;
      const vgw = await user.command(user.bin('vgwrdma'), ['--help'], user.home);
      expect(vgw.stdout).toMatch(/^Usage:\n\s+vgwrdma \[global flags\] posix \[posix flags\] <root>$/m);
      expect(vgw.stdout).toContain('--rdma-ip');
      const cuobjtest = await user.command(user.bin('cuobjtest'), ['-help'], user.home);
      expect(cuobjtest.stdout).toMatch(/^Usage:\n\s+cuobjtest \[flags\]/m);
      expect(cuobjtest.stdout).toContain('-endpoint URL');
    },
    10 * MINUTES,
  );

  it(
    'brings one koffi per installed command (three copies once aborted the gateway at start)',
    async () => {
      await installs.global;
      for (const name of ['vgwrdma', '@vgwrdma/cuobjtest']) {
        const copies = await koffiCopies(join(user.prefix, 'lib', 'node_modules', name));
        expect(
          copies.map((c) => c.version),
          `${name}: ${JSON.stringify(copies)}`,
        ).toEqual(['3.3.4']);
      }
    },
    10 * MINUTES,
  );
});

describe('used by: pnpm add @vgwrdma/cuobjclient @aws-sdk/client-s3 (isolated node_modules)', () => {
  it(
    'one koffi, and 8 MiB up and down by RDMA against the installed vgwrdma',
    async () => {
      const app = await installs.pnpmApp;
      expect((await koffiCopies(join(app, 'node_modules'))).map((c) => c.version)).toEqual(['3.3.4']);
      const served = await startInstalledVgwrdma();
      const stdout = await runAppFixture(user, app, 'app.mjs', clientEnv(served.endpoint, 'app-pnpm'));
      expect(JSON.parse(stdout), served.stderr()).toEqual({ module: 'esm', ...RDMA_ROUND_TRIP });
    },
    10 * MINUTES,
  );
});

describe(`used by: an app with its own ${APP_KOFFI}`, () => {
  it(
    'keeps its koffi, and moves 8 MiB by RDMA through cuobjclient (koffi 3 nested, one copy)',
    async () => {
      const app = await installs.ownKoffiApp;
      const versions = (await koffiCopies(join(app, 'node_modules'))).map((c) => c.version).sort();
      expect(versions).toEqual([APP_KOFFI.slice('koffi@'.length), '3.3.4']);
      const served = await startInstalledVgwrdma();
      const env = clientEnv(served.endpoint, 'app-own-koffi');
      const stdout = await runAppFixture(user, app, 'app-own-koffi.mjs', env, 'app.mjs');
      const [own, trip] = stdout.trim().split('\n');
      expect(JSON.parse(own as string)).toEqual({ koffi: APP_KOFFI.slice('koffi@'.length), ownCall: true });
      expect(JSON.parse(trip as string), served.stderr()).toEqual({ module: 'esm', ...RDMA_ROUND_TRIP });
    },
    10 * MINUTES,
  );
});

describe('used by: an app with npm install @vgwrdma/cuobjclient @aws-sdk/client-s3', () => {
  let gateway: Promise<Served> | undefined;
  /** One installed vgwrdma for the ESM and the CommonJS app, started by whichever runs first. */
  const installedGateway = (): Promise<Served> => {
    gateway ??= startInstalledVgwrdma();
    return gateway;
  };

  for (const [script, module] of [
    ['app.mjs', 'esm'],
    ['app.cjs', 'cjs'],
  ] as const) {
    it(
      `${script}: 8 MiB up and down by RDMA against the installed vgwrdma, bytes equal`,
      async () => {
        const app = await installs.app;
        const served = await installedGateway();
        const stdout = await runAppFixture(user, app, script, clientEnv(served.endpoint, `app-${module}`));
        expect(JSON.parse(stdout), `${script}\n${served.stderr()}`).toEqual({ module, ...RDMA_ROUND_TRIP });
        await expectPlatformLibrary(served, join(user.prefix, 'lib', 'node_modules', 'vgwrdma'));
      },
      10 * MINUTES,
    );
  }
});

describe('used by: the global cuobjtest', () => {
  it(
    'verifies 8 MiB PUT and GET by RDMA against the installed vgwrdma',
    async () => {
      await expectInstalledCuobjtest(user, await startInstalledVgwrdma(), 'cuobjtest', KEYS);
    },
    10 * MINUTES,
  );
});

describe('used by: a custom gateway embedding cu-backend', () => {
  it(
    'serves the same 8 MiB round trip by RDMA',
    async () => {
      const [dir, app] = await Promise.all([installs.customGateway, installs.app]);
      await copyFile(join(FIXTURES, 'custom-gateway.mjs'), join(dir, 'gateway.mjs'));
      const root = await user.folder('custom-root');
      const gateway = await serve(process.execPath, ['gateway.mjs', root], {
        cwd: dir,
        env: { ...user.env, ...KEYS },
      });
      started.push(gateway);
      const stdout = await runAppFixture(user, app, 'app.mjs', clientEnv(gateway.endpoint, 'custom'));
      expect(JSON.parse(stdout), gateway.stderr()).toEqual({ module: 'esm', ...RDMA_ROUND_TRIP });
      await expectPlatformLibrary(gateway, dir);
      expect(await gateway.stop()).toBe(0);
    },
    10 * MINUTES,
  );
});

describe("the READMEs' runnable examples", () => {
  it(
    'each ```js example block runs to completion against the installed packages',
    async () => {
      const examples = await readmeExamples();
      // The READMEs whose examples are the documented ways in: a changed info string must not hide them.
      const readmes = new Set(examples.map((e) => e.where.replace(/:\d+$/, '')));
      for (const pkg of ['cuobjclient', 'cu-backend', 'gateway']) {
        expect(readmes, 'READMEs with a ```js example block').toContain(`packages/${pkg}/README.md`);
      }
      const packages = [...new Set(examples.flatMap((e) => e.packages))].sort();
      const dir = await timed('examples install', () => installIn('readme-examples', packages));
      const gateway = await startInstalledVgwrdma();
      await mkdir(join(dir, 'roots'));
      for (const [i, example] of examples.entries()) {
        await writeFile(join(dir, example.fileName), example.code);
        const env = {
          ...clientEnv(gateway.endpoint, `example-${i}`),
          EXAMPLE_ROOT: join(dir, 'roots'),
          EXAMPLE_ONCE: '1',
        };
        await expect(user.node(example.fileName, [], dir, env), example.where).resolves.toBeDefined();
      }
    },
    10 * MINUTES,
  );
});
