// memory: 'cuda' sessions against a real gateway process (posix + CuServer + cu-middleware over
// softnic). On GPU-less machines the device is native-shims' fake CUDA runtime
// (libvgw_fake_cudart.so: device pointers are not CPU-addressable, async copies land only when
// waited for), so what is checked is the staging around real transfers: the object stored is
// what was on the device, and what a download brings lands on the device. The last block runs
// the same on a real GPU and skips, saying why, where there is none.

import { createHash, randomFillSync } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CreateBucketCommand } from '@aws-sdk/client-s3';
import { EmbeddedGateway, FAKE_CUDART } from '@vgwrdma/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CuObjError, Session } from '../src/index.js';
import { noRealGpu } from './no-real-gpu.js';

const MiB = 2 ** 20;
const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

describe("memory: 'cuda' sessions against a gateway process", () => {
  let gw: EmbeddedGateway;
  let plain: EmbeddedGateway;
  const bucket = 'cuda-e2e';

  beforeAll(async () => {
    [gw, plain] = await Promise.all([EmbeddedGateway.start(), EmbeddedGateway.start({ rdma: false })]);
    for (const g of [gw, plain]) await g.client().send(new CreateBucketCommand({ Bucket: bucket }));
  });
  afterAll(async () => {
    await Promise.all([gw?.stop(), plain?.stop()]);
  });

  it('device → object → device, byte for byte, with a CRC32C over the staged bytes (fake CUDA runtime)', async () => {
    const s3 = gw.client();
    await using s = await Session.open({
      size: 6 * MiB + 5,
      memory: 'cuda',
      cudaLibrary: FAKE_CUDART,
      checksum: 'crc32c',
      staging: { chunkBytes: MiB, streams: 3 },
    });
    expect(s.memory).toBe('cuda');
    expect(typeof s.devicePtr).toBe('bigint');
    expect(s.describeDevice()).toMatch(/^Fake CUDA Device/);
    expect(() => s.buffer).toThrow(expect.objectContaining({ code: 'VGW_ERR_CUOBJ_WRONG_MEMORY' }));

    const data = randomFillSync(new Uint8Array(s.size));
    s.copyToDevice(data);
    const up = await s.upload(s3, bucket, 'gpu-obj');
    expect(up).toMatchObject({ via: 'rdma', bytes: s.size, rdmaReply: '200' });
    expect(up.stagingMs).toBeGreaterThanOrEqual(0);
    expect(sha(await readFile(join(gw.root, bucket, 'gpu-obj')))).toBe(sha(data));

    s.copyToDevice(new Uint8Array(s.size)); // zero the device
    const down = await s.download(s3, bucket, 'gpu-obj');
    expect(down).toMatchObject({ via: 'rdma', httpStatus: 200, rdmaReply: '200' });
    const back = new Uint8Array(s.size);
    s.copyFromDevice(back);
    expect(sha(back)).toBe(sha(data));
  });

  it('upload(src) puts src on the device first; download(dst) also fills dst', async () => {
    const s3 = gw.client();
    await using s = await Session.open({ size: 2 * MiB, memory: 'cuda', cudaLibrary: FAKE_CUDART });
    const src = randomFillSync(new Uint8Array(s.size));
    await s.upload(s3, bucket, 'gpu-src', src);
    const onDevice = new Uint8Array(s.size);
    s.copyFromDevice(onDevice);
    expect(sha(onDevice)).toBe(sha(src));
    s.copyToDevice(new Uint8Array(s.size));
    const dst = new Uint8Array(s.size);
    await s.download(s3, bucket, 'gpu-src', dst);
    s.copyFromDevice(onDevice);
    expect([sha(dst), sha(onDevice)]).toEqual([sha(src), sha(src)]);
  });

  it('a gateway without RDMA: the HTTP fallback body reaches the device too', async () => {
    const s3 = plain.client();
    const data = randomFillSync(new Uint8Array(MiB));
    await using s = await Session.open({
      size: MiB,
      memory: 'cuda',
      cudaLibrary: FAKE_CUDART,
      fallback: 'http',
    });
    s.copyToDevice(data);
    await expect(s.upload(s3, bucket, 'gpu-plain')).rejects.toBeInstanceOf(CuObjError); // no reply: never retried
    const { PutObjectCommand } = await import('@aws-sdk/client-s3');
    await s3.send(new PutObjectCommand({ Bucket: bucket, Key: 'gpu-plain', Body: data }));
    s.copyToDevice(new Uint8Array(MiB));
    expect((await s.download(s3, bucket, 'gpu-plain')).via).toBe('http');
    const back = new Uint8Array(MiB);
    s.copyFromDevice(back);
    expect(sha(back)).toBe(sha(data));
  });

  it('a caller-owned device allocation (devicePtr) is used as it is', async () => {
    const s3 = gw.client();
    await using owner = await Session.open({ size: MiB, memory: 'cuda', cudaLibrary: FAKE_CUDART });
    const data = randomFillSync(new Uint8Array(MiB));
    owner.copyToDevice(data);
    await using s = await Session.open({
      size: MiB,
      memory: 'cuda',
      cudaLibrary: FAKE_CUDART,
      devicePtr: owner.devicePtr,
    });
    expect(s.devicePtr).toBe(owner.devicePtr);
    await s.upload(s3, bucket, 'gpu-owned');
    expect(sha(await readFile(join(gw.root, bucket, 'gpu-owned')))).toBe(sha(data));
  });

  describe('on a real GPU', () => {
    const why = noRealGpu();
    for (const size of [256 * MiB]) {
      it(`${size / MiB} MiB round trip through the gateway, checked on the device`, async (ctx) => {
        if (why !== undefined) return ctx.skip(`no real CUDA device here: ${why}`);
        const s3 = gw.client();
        await using s = await Session.open({ size, memory: 'cuda' });
        const data = randomFillSync(new Uint8Array(size));
        s.copyToDevice(data);
        await s.upload(s3, bucket, 'gpu-real');
        s.copyToDevice(new Uint8Array(size));
        await s.download(s3, bucket, 'gpu-real');
        const back = new Uint8Array(size);
        s.copyFromDevice(back);
        expect(sha(back)).toBe(sha(data));
      });
    }
  });
});
