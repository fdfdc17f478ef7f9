// Where the workspace's build outputs live, resolved from this package (src/ and dist/ sit at the
// same depth, so the paths hold for both). Tests reach other packages' builds only through these.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root, with a trailing separator. */
export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** The built gateway application that end-to-end tests start. */
export const APP_MAIN = join(REPO_ROOT, 'apps', 'vgwrdma', 'dist', 'main.js');

/** The repository's build of the native shims for this platform. */
export const SHIM_BUILD_DIR = join(REPO_ROOT, 'native-shims', 'build', `${process.platform}-${process.arch}`);

/** Where the shim library is loaded from: VGWRDMA_SHIM_DIR, or the repository's build. */
export function shimDir(): string {
  return process.env.VGWRDMA_SHIM_DIR ?? SHIM_BUILD_DIR;
}

/** The fake CUDA runtime (GPU-less tests of CUDA device memory), built with the shims. */
export const FAKE_CUDART = join(SHIM_BUILD_DIR, 'libvgw_fake_cudart.so');

/** `packages/<name>/dist/<file>`, or `<dir>/dist/<file>` for a repo-relative folder such as `apps/vgwrdma`. */
export function distFile(name: string, file = 'index.js'): string {
  return join(REPO_ROOT, name.includes('/') ? name : join('packages', name), 'dist', file);
}
