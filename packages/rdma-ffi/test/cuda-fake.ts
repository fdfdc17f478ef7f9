// The fake CUDA runtime that native-shims builds for GPU-less machines
// (native-shims/test/fake_cudart/: device pointers are not CPU-addressable, async copies land
// only when waited for, faults on demand through FAKE_CUDART_* variables).

import { koffi } from '@vgwrdma/native';
import { FAKE_CUDART } from '@vgwrdma/test-kit';

export { FAKE_CUDART };

/** Makes the fake's next cudaMemcpyAsync fail with cudaError `code` (the shims must have loaded it). */
export function failNextAsyncCopy(code: number): void {
  const calls = koffi.load(FAKE_CUDART).func('unsigned int fake_cudart_calls(const char *name)');
  process.env.FAKE_CUDART_FAIL = `memcpy_async:${(calls('memcpy_async') as number) + 1}:${code}`;
}

/** Device allocations + streams + pinned ranges the fake still holds. */
export function fakeLive(): number {
  return koffi.load(FAKE_CUDART).func('int fake_cudart_live(void)')() as number;
}
