// The HostClient child and the server load the native shims: check they are built (npm test
// builds them before vitest starts).
import { requireBuilt } from '@vgwrdma/test-kit';

export default function setup(): void {
  requireBuilt({ shims: true });
}
