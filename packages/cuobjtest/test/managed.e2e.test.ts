// cuobjtest's managed transfers (-part-size / -part-concurrency): the built bin against a gateway
// process (posix + CuServer + cu-middleware, softnic). -compare moves the same sizes as a
// TransferManager multipart RDMA upload + ranged RDMA GETs and as the SDK's multipart upload +
// ranged GETs over HTTP, each verified; -memory cuda does it from GPU memory (native-shims' fake
// CUDA runtime); the text output names the parts, retries and the multipart ETag. Assertions are
// on the --json document and the text's managed lines, never on times.

import { FAKE_CUDART } from '@vgwrdma/test-kit';
import { describe, expect, it } from 'vitest';
import type { RunResult } from '../src/index.js';
import { binAgainstGateway } from './bin-against-gateway.js';

const MiB = 2 ** 20;

describe('cuobjtest managed transfers against a gateway process', () => {
  const bin = binAgainstGateway();
  const cuobjtest = (...args: string[]) => bin.cuobjtest(args, { VGWRDMA_CUDA_LIB: FAKE_CUDART });

  function expectManaged(r: RunResult | undefined, mode: RunResult['mode'], memory: 'host' | 'cuda'): void {
    expect(r).toMatchObject({
      mode,
      memory,
      sizeBytes: 21 * MiB + 5,
      iterations: 2,
      verified: true,
      managed: {
        partSize: 5 * MiB,
        partConcurrency: 3,
        put: { parts: 5, retries: 0, etag: expect.stringMatching(/^"[0-9a-f]{32}-5"$/) },
        get: { parts: 5, retries: 0 },
      },
    });
    expect(r?.put?.gbps).toBeGreaterThan(0);
    expect(r?.get?.gbps).toBeGreaterThan(0);
    expect(r?.get?.iterations.every((it) => it.checksum === 'OK')).toBe(true);
  }

  const common = ['-size', `${21 * MiB + 5}`, '-n', '2', '-part-size', '5MiB', '-part-concurrency', '3'];

  it('-compare: managed RDMA next to the SDK-style multipart over HTTP, same parts, both verified', async () => {
    const { code, stdout, stderr } = await cuobjtest('-bucket', 'managed', ...common, '-compare', '-json');
    expect(stderr).not.toMatch(/cuobjtest:/);
    expect(code).toBe(0);
    const [rdma, std] = JSON.parse(stdout) as RunResult[];
    expectManaged(rdma, 'rdma', 'host');
    expectManaged(std, 'std-s3', 'host');
    expect(rdma?.vsStdS3?.put?.pairs).toHaveLength(2);
  });

  it('-memory cuda: from and into GPU memory the manager allocates (fake CUDA runtime)', async () => {
    const { code, stdout } = await cuobjtest(
      '-bucket',
      'managed-cuda',
      ...common,
      '-memory',
      'cuda',
      '-json',
    );
    expect(code).toBe(0);
    expectManaged(JSON.parse(stdout) as RunResult, 'rdma', 'cuda');
  });

  it('text output: the managed lines under the summary; put-only checks the stored object', async () => {
    const { code, stdout } = await cuobjtest('-bucket', 'managed-text', ...common);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^managed {2}part-size=5 MiB {2}part-concurrency=3$/m);
    expect(stdout).toMatch(/^PUT {2}parts=5 {2}retries=0 {2}etag="[0-9a-f]{32}-5"$/m);
    expect(stdout).toMatch(/^GET {2}parts=5 {2}retries=0/m);
    expect(stdout).toMatch(/All checksums OK\./);
    const put = await cuobjtest('-bucket', 'managed-text', ...common, '-put-only', '-json');
    expect(put.code).toBe(0);
    expect(JSON.parse(put.stdout)).toMatchObject({ verified: true, managed: { put: { parts: 5 } } });
  });

  it('-part-size below 5 MiB is a usage error', async () => {
    const { code, stderr } = await cuobjtest('-part-size', '1MiB');
    expect(code).toBe(2);
    expect(stderr).toMatch(/-part-size: at least 5 MiB/);
  });
});
