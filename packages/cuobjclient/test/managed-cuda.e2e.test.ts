// TransferManager with GPU memory the caller owns (`{ memory: 'cuda', devicePtr, size }`) against a
// real gateway process, on native-shims' fake CUDA runtime (device pointers are not
// CPU-addressable): each part is copied between the caller's device memory and a pooled 'cuda'
// session's pinned host twin, so what is checked is that the object stored is what was on the
// device, part for part, and that a download lands on the device at the right offsets. The last
// test does the same on a real GPU and skips, saying why, where there is none.

import { createHash, randomFillSync } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CreateBucketCommand } from '@aws-sdk/client-s3';
import { GpuClient } from '@vgwrdma/rdma-ffi';
import { EmbeddedGateway, FAKE_CUDART } from '@vgwrdma/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TransferManager } from '../src/index.js';
import { noRealGpu } from './no-real-gpu.js';

const MiB = 2 ** 20;
const bucket = 'managed-cuda';
const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

describe('TransferManager with GPU memory against a gateway process', () => {
  let gw: EmbeddedGateway;

  beforeAll(async () => {
    gw = await EmbeddedGateway.start();
    await gw.client().send(new CreateBucketCommand({ Bucket: bucket }));
  });
  afterAll(async () => {
    await gw?.stop();
  });

  it('device → multipart object → device (fake CUDA runtime), with a full-object CRC32C', async () => {
    const size = 17 * MiB + 321; // 4 parts of 5 MiB, the last short
    // The caller's own device allocation (cudaMalloc through the fake runtime).
    using owner = new GpuClient();
    owner.configureCuda({ library: FAKE_CUDART });
    using dev = owner.allocate(size, 'cuda-device');
    const data = randomFillSync(new Uint8Array(size));
    dev.copyFromHost(data);

    await using tm = new TransferManager({
      client: gw.client(),
      partSize: 5 * MiB,
      concurrency: 3,
      cudaLibrary: FAKE_CUDART,
      checksum: { algorithm: 'crc32c' },
    });
    const source = { memory: 'cuda', devicePtr: dev.devicePtr, size } as const;
    const up = await tm.upload({ bucket, key: 'from-gpu', source });
    expect(up).toMatchObject({ method: 'multipart', parts: 4, bytes: size, retries: 0 });
    expect(sha(await readFile(join(gw.root, bucket, 'from-gpu')))).toBe(sha(data));

    dev.fill(0);
    const down = await tm.download({ bucket, key: 'from-gpu', destination: source });
    expect(down).toMatchObject({ bytes: size, parts: 4, checksumVerified: true });
    const back = new Uint8Array(size);
    dev.copyToHost(back);
    expect(sha(back)).toBe(sha(data));
  });

  it('a smaller object into a larger device destination; a too-small one is refused, the device untouched', async () => {
    using owner = new GpuClient();
    owner.configureCuda({ library: FAKE_CUDART });
    using dev = owner.allocate(12 * MiB, 'cuda-device');
    const data = randomFillSync(new Uint8Array(7 * MiB + 1));
    await using tm = new TransferManager({
      client: gw.client(),
      partSize: 5 * MiB,
      cudaLibrary: FAKE_CUDART,
    });
    await tm.upload({ bucket, key: 'seven', source: data });
    dev.fill(0xab);
    const down = await tm.download({
      bucket,
      key: 'seven',
      destination: { memory: 'cuda', devicePtr: dev.devicePtr, size: dev.size },
    });
    expect(down).toMatchObject({ bytes: data.length, parts: 2 });
    const back = new Uint8Array(dev.size);
    dev.copyToHost(back);
    expect(sha(back.subarray(0, data.length))).toBe(sha(data));
    expect(back.subarray(data.length).every((b) => b === 0xab)).toBe(true);

    dev.fill(0xcd);
    await expect(
      tm.download({
        bucket,
        key: 'seven',
        destination: { memory: 'cuda', devicePtr: dev.devicePtr, size: MiB },
      }),
    ).rejects.toMatchObject({ code: 'VGW_ERR_CUOBJ_DESTINATION_TOO_SMALL' });
    dev.copyToHost(back);
    expect(back.every((b) => b === 0xcd)).toBe(true);
  });

  it('GPU memory the manager allocates (allocateDevice: cudaMalloc, no registration) as source and destination; freed by close()', async () => {
    const tm = new TransferManager({ client: gw.client(), partSize: 5 * MiB, cudaLibrary: FAKE_CUDART });
    const size = 9 * MiB + 77;
    const src = tm.allocateDevice(size);
    const dst = tm.allocateDevice(size + MiB);
    expect(src).toMatchObject({ memory: 'cuda', size });
    const data = randomFillSync(new Uint8Array(size));
    src.copyFromHost(data);
    dst.fill(0);
    await tm.upload({ bucket, key: 'manager-gpu', source: src });
    const down = await tm.download({ bucket, key: 'manager-gpu', destination: dst });
    expect(down).toMatchObject({ bytes: size, parts: 2 });
    const back = new Uint8Array(size);
    dst.copyToHost(back);
    expect(sha(back)).toBe(sha(data));
    await tm.close();
    expect(src.closed && dst.closed).toBe(true);
  });

  it('256 MiB device → object → device on a real GPU', async (ctx) => {
    const why = noRealGpu();
    if (why !== undefined) return ctx.skip(`no real CUDA device here: ${why}`);
    const size = 256 * MiB;
    await using tm = new TransferManager({ client: gw.client(), partSize: 64 * MiB });
    const dev = tm.allocateDevice(size);
    const data = randomFillSync(new Uint8Array(size));
    dev.copyFromHost(data);
    const source = dev;
    await tm.upload({ bucket, key: 'real-gpu', source });
    dev.fill(0);
    await tm.download({ bucket, key: 'real-gpu', destination: source });
    const back = new Uint8Array(size);
    dev.copyToHost(back);
    expect(sha(back)).toBe(sha(data));
  });
});
