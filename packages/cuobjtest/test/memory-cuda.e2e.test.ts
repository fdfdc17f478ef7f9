// cuobjtest --memory cuda: the built bin against a gateway process, with GPU memory. On
// GPU-less machines the device is native-shims' fake CUDA runtime (VGWRDMA_CUDA_LIB; device
// pointers not CPU-addressable, deferred async copies), so this checks that data is filled and
// verified on the device side and staged around real softnic transfers. Without a CUDA runtime
// the run fails with exit 1 and says why.

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { FAKE_CUDART } from '@vgwrdma/test-kit';
import { describe, expect, it } from 'vitest';
import type { RunResult } from '../src/index.js';
import { binAgainstGateway } from './bin-against-gateway.js';
import { runArgs } from './run-args.js';

const MiB = 2 ** 20;

describe('cuobjtest --memory cuda', () => {
  const bin = binAgainstGateway();
  const cuobjtest = (cudaLib: string, ...args: string[]) =>
    bin.cuobjtest(args, { VGWRDMA_CUDA_LIB: cudaLib });

  it('--compare: GPU-memory RDMA verified on the device next to std-s3, staging time reported', async () => {
    const args = runArgs(
      { bucket: 'e2e-cuda', size: '4MiB', n: 2 },
      '--memory',
      'cuda',
      '--compare',
      '--json',
    );
    const { code, stdout, stderr } = await cuobjtest(FAKE_CUDART, ...args);
    expect(code, stderr).toBe(0);
    const [rdma, std] = JSON.parse(stdout) as RunResult[];
    expect(rdma).toMatchObject({ mode: 'rdma', memory: 'cuda', transport: 'softnic', verified: true });
    expect(rdma?.device).toMatch(/^Fake CUDA Device \(vgwrdma tests\) \(device 0 of 1\)/);
    expect(rdma?.put?.stagingMs?.avg).toBeGreaterThanOrEqual(0);
    expect(rdma?.get?.stagingMs?.avg).toBeGreaterThanOrEqual(0);
    expect(std).toMatchObject({ mode: 'std-s3', memory: 'host', verified: true });
    const stored = await readFile(join(bin.gw().root, 'e2e-cuda', 'cuobjtest-object-rdma'));
    expect(stored.length).toBe(4 * MiB);
  });

  it("text mode: the original's GPU mode name; the device and staging times are in --json", async () => {
    const { code, stdout } = await cuobjtest(
      FAKE_CUDART,
      ...runArgs({ bucket: 'e2e-cuda-text', size: '1MiB', n: 1 }, '-memory', 'cuda'),
    );
    expect(code).toBe(0);
    expect(stdout).toMatch(/^ {12}mode=real-cuda-cuobject-token$/m);
    expect(stdout).toMatch(/\nAll checksums OK\.\n$/);
  });

  it('without a CUDA runtime: exit 1 and the reason', async () => {
    const { code, stderr } = await cuobjtest(
      '/nonexistent/libcudart.so',
      ...runArgs({ size: '1MiB', n: 1 }, '-memory', 'cuda'),
    );
    expect(code).toBe(1);
    expect(stderr).toMatch(
      /memory: 'cuda' needs a CUDA runtime and device: .*no CUDA runtime: \/nonexistent\/libcudart\.so/,
    );
  });
});
