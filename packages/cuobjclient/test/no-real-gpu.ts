// Why the tests that need a real GPU cannot run here (the reason their skip names), or undefined
// where one is usable: configuring CUDA on a GpuClient is the probe.
import { GpuClient } from '@vgwrdma/rdma-ffi';

export function noRealGpu(): string | undefined {
  try {
    using c = new GpuClient();
    c.configureCuda();
    return undefined;
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}
