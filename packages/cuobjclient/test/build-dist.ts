// Test-time builds for what plain `node` child processes import: the native shims when their
// library is missing, and a workspace package's dist/ when it is missing or older than its src/
// (mtime check, so a warm run does not pay tsup's declaration build again).

import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = fileURLToPath(new URL('../../../', import.meta.url));

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

/** Builds the native shims when libvgwrdma_shims.so or the fake CUDA runtime is missing (and VGWRDMA_SHIM_DIR is unset). */
export function ensureShims(): void {
  const shims = join(REPO, 'native-shims');
  const dir = join(shims, 'build', `${process.platform}-${process.arch}`);
  // the fake CUDA runtime (memory: 'cuda' tests on GPU-less machines) is built with the shims
  const built = ['libvgwrdma_shims.so', 'libvgw_fake_cudart.so'].every((f) => existsSync(join(dir, f)));
  if (!process.env.VGWRDMA_SHIM_DIR && !built) {
    execFileSync(process.execPath, ['build.mjs'], { cwd: shims, stdio: 'inherit' });
  }
}

/**
 * Runs tsup in `packages/<name>` (or a repo-relative directory such as `apps/vgwrdma`) when its dist/index.js is missing, or (`whenStale`, for the
 * package under test) older than a source file. Other packages' dist/ is built by `npm test`
 * (turbo) before vitest runs; here it is only filled in when absent.
 */
export function ensureDist(name: string, whenStale = false): void {
  const pkg = join(REPO, name.includes('/') ? name : join('packages', name));
  const out = join(pkg, 'dist', existsSync(join(pkg, 'src', 'index.ts')) ? 'index.js' : 'main.js');
  if (existsSync(out) && (!whenStale || statSync(out).mtimeMs >= newestMtime(join(pkg, 'src')))) return;
  execFileSync(process.execPath, [join(pkg, 'node_modules', 'tsup', 'dist', 'cli-default.js'), '--silent'], {
    cwd: pkg,
    stdio: 'inherit',
  });
}

/** What the gateway fixture (test/fixtures/gateway-process.mjs) imports. */
export const GATEWAY_PACKAGES = [
  'rdma-protocol',
  's3-backend',
  'rdma-ffi',
  'bufferpool',
  'backend-posix',
  'cu-middleware',
  'cu-backend',
  'gateway',
];
