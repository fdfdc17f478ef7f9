// What the cuobjtest child process and the gateway processes load must be built (npm test builds
// it before vitest starts): the shims, the gateway's packages, cuobjclient and this package
// (dist/main.js is the bin under test).
import { GATEWAY_PACKAGES, requireBuilt } from '@vgwrdma/test-kit';

export default function setup(): void {
  requireBuilt({ shims: true, dist: [...GATEWAY_PACKAGES, 'cuobjclient', 'cuobjtest'] });
}
