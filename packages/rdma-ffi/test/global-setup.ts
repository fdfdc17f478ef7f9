// The transfer tests run HostClient in a plain-node child process that imports dist/index.js, and
// the CUDA tests load the fake CUDA runtime: both must be built (npm test builds them before
// vitest starts, so the children run the current code).
import { requireBuilt } from '@vgwrdma/test-kit';

export default function setup(): void {
  requireBuilt({ shims: true, dist: ['errors', 'rdma-protocol', 'native', 'rdma-ffi'] });
}
