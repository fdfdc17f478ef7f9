// Proof that `npm install @vgwrdma/cuobjclient` works outside the monorepo: pack the workspace
// packages with pnpm (which rewrites workspace:* to versions), install the tarballs into a scratch
// app with plain npm (the AWS SDK and koffi come from the npm registry), and run an upload/download
// against a gateway process. The native shim comes from VGWRDMA_SHIM_DIR pointing at the repo
// build; a published release would ship it in per-platform packages (@vgwrdma/native-shims-<os>-<arch>).

import { execFile } from 'node:child_process';
import { copyFile, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { EMBEDDED_CREDENTIALS, EmbeddedGateway, REPO_ROOT as REPO } from '@vgwrdma/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const APP = fileURLToPath(new URL('./fixtures/scratch-app/app.mjs', import.meta.url));
const SHIM_DIR = join(REPO, 'native-shims', 'build', `${process.platform}-${process.arch}`);
/** What the scratch app installs from the workspace: cuobjclient and its workspace dependencies. */
const PACKED = [
  'errors',
  'rdma-protocol',
  'cli-options',
  'backend-contract',
  'native',
  'rdma-ffi',
  'cuobjclient',
];

describe('packaging: pnpm pack + npm install in a scratch app', () => {
  let dir: string;
  let gw: EmbeddedGateway;
  const tarballs: Record<string, string> = {};

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'cuobj-pack-'));
    gw = await EmbeddedGateway.start();
    for (const name of PACKED) {
      const before = new Set(await readdir(dir));
      await run('npx', ['--yes', 'pnpm@10.34.9', 'pack', '--pack-destination', dir], {
        cwd: join(REPO, 'packages', name),
      });
      const made = (await readdir(dir)).find((f) => f.endsWith('.tgz') && !before.has(f));
      if (!made) throw new Error(`pnpm pack of ${name} produced no tarball`);
      tarballs[name] = made;
    }
  }, 180_000);
  afterAll(async () => {
    await gw?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('the tarballs carry dist/ and versions instead of workspace:*', async () => {
    const { stdout } = await run('tar', [
      '-xOzf',
      join(dir, tarballs.cuobjclient ?? ''),
      'package/package.json',
    ]);
    const pkg = JSON.parse(stdout) as {
      dependencies: Record<string, string>;
      peerDependencies: Record<string, string>;
    };
    expect(pkg.dependencies['@vgwrdma/rdma-ffi']).toMatch(/^\d+\.\d+\.\d+$/);
    expect(pkg.peerDependencies['@aws-sdk/client-s3']).toBeDefined();
    const { stdout: list } = await run('tar', ['-tzf', join(dir, tarballs.cuobjclient ?? '')]);
    expect(list).toContain('package/dist/index.js');
    expect(list).toContain('package/dist/index.d.ts');
    expect(list).not.toMatch(/\.test\.ts/);
  });

  it('npm install of the tarballs works, and the installed SDK moves data through a gateway', async () => {
    const app = join(dir, 'app');
    await run('mkdir', ['-p', app]);
    const deps: Record<string, string> = { '@aws-sdk/client-s3': '3.1175.0' };
    for (const name of PACKED) deps[`@vgwrdma/${name}`] = `file:../${tarballs[name]}`;
    await writeFile(
      join(app, 'package.json'),
      JSON.stringify({ name: 'scratch-app', private: true, type: 'module', dependencies: deps }),
    );
    await copyFile(APP, join(app, 'app.mjs'));
    await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'], {
      cwd: app,
      timeout: 150_000,
    });

    const env: NodeJS.ProcessEnv = {
      ...process.env,
      GW_ENDPOINT: gw.endpoint,
      GW_ACCESS: EMBEDDED_CREDENTIALS.accessKeyId,
      GW_SECRET: EMBEDDED_CREDENTIALS.secretAccessKey,
    };
    // An explicit VGWRDMA_SHIM_DIR without the library is one clear error at Session.open, never a
    // silent fallback (a plain install finds the per-platform package instead: the install tests
    // in apps/vgwrdma/test/install/ cover that story through a registry).
    const empty = join(dir, 'no-shims-here');
    await run('mkdir', ['-p', empty]);
    const missing = JSON.parse(
      (await run(process.execPath, ['app.mjs'], { cwd: app, env: { ...env, VGWRDMA_SHIM_DIR: empty } }))
        .stdout,
    ) as Record<string, string>;
    expect(missing.error, JSON.stringify(missing)).toBe('VGW_ERR_CUOBJ_UNAVAILABLE');
    expect(missing.message).toMatch(/libvgwrdma_shims\.so not found/);
    expect(missing.message).toContain(empty);

    const ok = await run(process.execPath, ['app.mjs'], {
      cwd: app,
      env: { ...env, VGWRDMA_SHIM_DIR: SHIM_DIR },
    });
    expect(JSON.parse(ok.stdout), `${ok.stdout}\n${gw.stderr()}`).toEqual({
      put: 'rdma',
      get: 'rdma',
      equal: true,
    });
  }, 200_000);
});
