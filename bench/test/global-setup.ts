// Builds what the harness's child processes load when it is missing: the native shims, the
// gateway's packages, cuobjclient and cuobjtest (dist/main.js is the bin the harness runs).
import { ensureDist, ensureShims, GATEWAY_PACKAGES } from '../../packages/cuobjclient/test/build-dist.js';

export default function setup(): void {
  ensureShims();
  // test-kit's gateway child loads backend-s3 only for a proxy, but it is part of the bundle.
  for (const name of [...GATEWAY_PACKAGES, 'backend-s3']) ensureDist(name);
  ensureDist('cuobjclient');
  ensureDist('cuobjtest');
}
