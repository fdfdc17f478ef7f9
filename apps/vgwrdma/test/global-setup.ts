// The end-to-end tests start the built app (and, for RDMA, it loads the native shims; cuobjtest's
// and cuobjclient's builds serve the client side): check they exist before any test starts
// (npm test builds them before vitest starts).
import { GATEWAY_PACKAGES, requireBuilt } from '@vgwrdma/test-kit';

export default function setup(): void {
  requireBuilt({
    shims: true,
    dist: [...GATEWAY_PACKAGES, 'backend-s3', 'backend-azure', 'cuobjclient', 'cuobjtest', 'apps/vgwrdma'],
  });
}
