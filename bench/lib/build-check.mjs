// The harness runs the built workspace (dist/ of the gateway's packages, cuobjtest's bin, the
// native shims); it does not build. Missing pieces are named with the command that builds them.

import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const NEEDED = [
  'packages/errors/dist/index.js',
  'packages/rdma-protocol/dist/index.js',
  'packages/backend-contract/dist/index.js',
  'packages/rdma-ffi/dist/index.js',
  'packages/bufferpool/dist/index.js',
  'packages/backend-posix/dist/index.js',
  'packages/cu-middleware/dist/index.js',
  'packages/cu-backend/dist/index.js',
  'packages/gateway/dist/index.js',
  'packages/backend-s3/dist/index.js',
  'packages/cuobjclient/dist/index.js',
  'packages/cuobjtest/dist/main.js',
  'node_modules/s3rver/package.json',
];

export function missingBuildOutputs() {
  const shim = process.env.VGWRDMA_SHIM_DIR
    ? `${process.env.VGWRDMA_SHIM_DIR}/libvgwrdma_shims.so`
    : `native-shims/build/${process.platform}-${process.arch}/libvgwrdma_shims.so`;
  return [...NEEDED, shim].filter((p) => !existsSync(p.startsWith('/') ? p : REPO + p));
}
