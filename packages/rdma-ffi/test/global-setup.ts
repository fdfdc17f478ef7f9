// Builds the native shims when their library is missing, and always rebuilds this package's
// dist/ with tsup: the transfer tests run HostClient in a plain-node child process that imports
// dist/index.js, which must match the sources under test (and imports @vgwrdma/rdma-protocol's
// dist/, built here when absent).

import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const pkg = fileURLToPath(new URL('..', import.meta.url));
const protocol = fileURLToPath(new URL('../../rdma-protocol/', import.meta.url));
const shims = fileURLToPath(new URL('../../../native-shims/', import.meta.url));

export default function setup(): void {
  const lib = `${shims}build/${process.platform}-${process.arch}/libvgwrdma_shims.so`;
  // the fake CUDA runtime (GPU-less tests of CUDA device memory) is built with the shims
  const fakeCuda = `${shims}build/${process.platform}-${process.arch}/libvgw_fake_cudart.so`;
  if (!process.env.VGWRDMA_SHIM_DIR && (!existsSync(lib) || !existsSync(fakeCuda))) {
    execFileSync(process.execPath, ['build.mjs'], { cwd: shims, stdio: 'inherit' });
  }
  if (!existsSync(`${protocol}dist/index.js`)) tsup(protocol);
  tsup(pkg);
}

function tsup(dir: string): void {
  execFileSync(process.execPath, [`${dir}node_modules/tsup/dist/cli-default.js`, '--silent'], {
    cwd: dir,
    stdio: 'inherit',
  });
}
