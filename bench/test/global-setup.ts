// What the harness's child processes load must be built (npm test builds it before vitest
// starts): the native shims, the gateway's packages, cuobjclient and cuobjtest (dist/main.js is
// the bin the harness runs). bench is not a workspace package, so it reaches test-kit by path.
import { GATEWAY_PACKAGES, requireBuilt } from '../../packages/test-kit/src/index.js';

export default function setup(): void {
  // test-kit's gateway child loads backend-s3 only for a proxy, but it is part of the bundle.
  requireBuilt({ shims: true, dist: [...GATEWAY_PACKAGES, 'backend-s3', 'cuobjclient', 'cuobjtest'] });
}
