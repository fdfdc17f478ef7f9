// What plain `node` child processes load must be built (npm test builds it before vitest starts):
// the shims, the gateway fixture's packages and this package (the packaging test).
import { GATEWAY_PACKAGES, requireBuilt } from '@vgwrdma/test-kit';

export default function setup(): void {
  requireBuilt({ shims: true, dist: [...GATEWAY_PACKAGES, 'cuobjclient'] });
}
