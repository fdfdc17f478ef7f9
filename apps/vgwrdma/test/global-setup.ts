// The end-to-end tests start the built app (and, for RDMA, it loads the native shims; cuobjtest's
// and cuobjclient's builds serve the client side): check they exist before any test starts
// (npm test builds them before vitest starts). The teardown stops the run's shared Ceph RGW if a
// test started one (its supervisor would also stop it once this process ends).
import { GATEWAY_PACKAGES, requireBuilt, stopSharedCephRgw } from '@vgwrdma/test-kit';

export default function setup(): () => Promise<void> {
  requireBuilt({
    shims: true,
    dist: [...GATEWAY_PACKAGES, 'backend-s3', 'cuobjclient', 'cuobjtest', 'apps/vgwrdma'],
  });
  return stopSharedCephRgw;
}
