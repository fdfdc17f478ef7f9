// Helpers for the tests that install @vgwrdma/native as a user would: pack workspace packages with
// pnpm (so `workspace:*` becomes a version, and prepack stages lib/ and csrc/), pack koffi from the
// workspace's store (no registry needed for it), and `npm install` tarballs into a fresh directory
// outside the workspace.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = fileURLToPath(new URL('../../../../', import.meta.url));
const PNPM = ['--yes', 'pnpm@10.34.9'];

/**
 * The environment of a user's shell: no VGWRDMA_* override, and none of what the workspace's
 * runners add (NODE_PATH from pnpm's bin shims would resolve packages from the workspace; npm_*
 * and pnpm settings would steer npm).
 */
export function userEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const k of Object.keys(env)) {
    if (/^(VGWRDMA_|npm_|PNPM_|pnpm_)/i.test(k) || k === 'NODE_PATH' || k === 'NODE_OPTIONS') delete env[k];
  }
  return env;
}

/** Packs a workspace package (path under the repository) into `dest`; answers the tarball path. */
export function packWorkspace(pkg: string, dest: string): string {
  const before = new Set(readdirSync(dest));
  execFileSync('npx', [...PNPM, 'pack', '--pack-destination', dest], {
    cwd: join(REPO, pkg),
    stdio: 'pipe',
  });
  const made = readdirSync(dest).filter((f) => f.endsWith('.tgz') && !before.has(f));
  if (made.length !== 1) throw new Error(`pack of ${pkg} made ${made.join(', ') || 'nothing'}`);
  return join(dest, made[0] as string);
}

/** Packs koffi and its binary for this host from the workspace's store. */
export function packKoffi(dest: string): string[] {
  const dir = (name: string) => realpathSync(join(REPO, 'node_modules/.pnpm', name, 'node_modules'));
  const sources = [
    join(dir('koffi@3.3.4'), 'koffi'),
    join(dir(`@koromix+koffi-linux-${process.arch}@3.3.4`), `@koromix/koffi-linux-${process.arch}`),
  ];
  const out = execFileSync('npm', ['pack', '--silent', ...sources], {
    cwd: dest,
    encoding: 'utf8',
    env: userEnv(),
  });
  return out
    .trim()
    .split('\n')
    .map((f) => join(dest, f.trim()));
}

/** A fresh npm project outside the workspace with `tarballs` installed; answers its directory. */
export function installTarballs(tarballs: readonly string[]): string {
  const app = mkdtempSync(join(tmpdir(), 'vgw-native-user-'));
  writeFileSync(
    join(app, 'package.json'),
    JSON.stringify({ name: 'user-app', private: true, type: 'module' }),
  );
  execFileSync(
    'npm',
    ['install', '--no-audit', '--no-fund', '--prefer-offline', '--fetch-retries=0', ...tarballs],
    { cwd: app, stdio: 'pipe', env: userEnv() },
  );
  return app;
}

/** Whether the dist/ builds these tests pack exist. */
export function missingDist(packages: readonly string[]): string[] {
  return packages.filter((p) => !existsSync(join(REPO, 'packages', p, 'dist', 'index.js')));
}
