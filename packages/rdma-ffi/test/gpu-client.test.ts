// GpuClient (the cuObjClient-shaped ABI): system memory end to end with RdmaServer; CUDA device
// memory staged through a host twin, on the fake CUDA runtime (GPU-less machines): the gateway
// side reads what stageToHost put there and writes what stageToDevice carries to the device;
// clear errors without a runtime or device, for managed memory and for failed copies.

import { InvalidArgumentError } from '@vgwrdma/errors';
import { parseRdmaToken } from '@vgwrdma/rdma-protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { GpuClient, RdmaError, RdmaServer } from '../src/index.js';
import { FAKE_CUDART, failNextAsyncCopy, fakeLive } from './cuda-fake.js';
import { fillPattern, MiB, sha256 } from './helpers.js';

afterEach(() => {
  delete process.env.FAKE_CUDART_FAIL;
});

describe('GpuClient', () => {
  it('moves system memory both ways through RdmaServer (TCP path, one process)', async () => {
    using client = new GpuClient({ allowDirect: false });
    await using server = new RdmaServer({ channels: 2, allowDirect: false });
    using mem = client.allocate(2 * MiB);
    expect(mem.kind).toBe('system');
    const t = parseRdmaToken(mem.token(0, 2 * MiB, 'get'));
    expect(t.rkey).toBe(mem.rkey);
    expect(t.dctn).toBe(client.agentPort);
    using buf = server.allocateBuffer(2 * MiB);
    // GET fills the client's memory from the gateway buffer, PUT the other way round.
    const moves = [
      { op: 'get', from: buf.bytes, to: mem.bytes, seed: 5, run: server.handleGet.bind(server) },
      { op: 'put', from: mem.bytes, to: buf.bytes, seed: 6, run: server.handlePut.bind(server) },
    ] as const;
    for (const { op, from, to, seed, run } of moves) {
      fillPattern(from, seed);
      await run({ buffer: buf, size: 2 * MiB, token: parseRdmaToken(mem.token(0, 2 * MiB, op)) });
      expect(sha256(to)).toBe(sha256(from));
    }
  });

  it('refuses CUDA managed memory with ENOTSUP', () => {
    using client = new GpuClient();
    expect(() => client.allocate(MiB, 'cuda-managed')).toThrow(
      expect.objectContaining({
        name: 'RdmaError',
        errnoName: 'ENOTSUP',
        message: expect.stringMatching(/managed/),
      }),
    );
  });

  it('without a CUDA runtime: ENODEV naming the library it tried', () => {
    using client = new GpuClient();
    expect(() => client.configureCuda({ library: '/nonexistent/libcudart.so.13' })).toThrow(
      expect.objectContaining({
        errnoName: 'ENODEV',
        message: expect.stringMatching(/no CUDA runtime: \/nonexistent\/libcudart\.so\.13/),
      }),
    );
  });

  it('cuda-device memory staged through a host twin, both directions through RdmaServer (fake CUDA runtime)', async () => {
    using client = new GpuClient();
    client.configureCuda({ library: FAKE_CUDART });
    expect(client.describeCuda()).toMatch(
      /^Fake CUDA Device \(vgwrdma tests\) \(device 0 of 1\), runtime 13000/,
    );
    client.setStaging({ chunkBytes: MiB, streams: 3 });
    await using server = new RdmaServer({ channels: 2 });
    const size = 5 * MiB + 3;
    using dev = client.allocate(size, 'cuda-device');
    expect(dev.kind).toBe('cuda-device');
    expect(dev.pinned).toBe(true);
    expect(() => dev.bytes).toThrow(/not CPU-addressable/);
    const put = parseRdmaToken(dev.token(0, size, 'put'));
    expect(put.addr).not.toBe(dev.devicePtr); // tokens name the host twin

    // upload: device -> twin (stageToHost) -> gateway
    const src = Buffer.alloc(size);
    fillPattern(src, 11);
    dev.copyFromHost(src);
    await dev.stageToHost();
    using buf = server.allocateBuffer(size);
    await server.handlePut({ buffer: buf, size, token: parseRdmaToken(dev.token(0, size, 'put')) });
    expect(sha256(buf.bytes)).toBe(sha256(src));
    expect(sha256(dev.stagingBytes)).toBe(sha256(src)); // the twin holds what was sent

    // download: gateway -> twin -> device (stageToDevice), checked on the device after zeroing it
    dev.fill(0);
    fillPattern(buf.bytes, 12);
    await server.handleGet({ buffer: buf, size, token: parseRdmaToken(dev.token(0, size, 'get')) });
    const back = Buffer.alloc(size);
    dev.copyToHost(back);
    expect(back.every((b) => b === 0)).toBe(true); // nothing reaches the device before staging
    await dev.stageToDevice();
    dev.copyToHost(back);
    expect(sha256(back)).toBe(sha256(buf.bytes));
  });

  it('registers caller-owned device memory, refuses host memory as cuda-device, releases everything on close', () => {
    const client = new GpuClient();
    client.configureCuda({ library: FAKE_CUDART });
    const owner = client.allocate(MiB, 'cuda-device');
    using again = client.register(owner.devicePtr, MiB, 'cuda-device'); // a second registration of the same memory
    expect(again.devicePtr).toBe(owner.devicePtr);
    using host = client.allocate(4096);
    expect(() => client.register(host.address, 4096, 'cuda-device')).toThrow(
      expect.objectContaining({
        errnoName: 'EINVAL',
        message: expect.stringMatching(/not CUDA device memory/),
      }),
    );
    expect(() => client.configureCuda({ library: FAKE_CUDART, device: 1 })).toThrow(
      expect.objectContaining({
        errnoName: 'ENODEV',
        message: expect.stringMatching(/device 1 does not exist \(1 present\)/),
      }),
    );
    client.close();
    expect(fakeLive()).toBe(0);
  });

  it('a failed device copy rejects with the CUDA error, and the next stage works', async () => {
    using client = new GpuClient();
    client.configureCuda({ library: FAKE_CUDART });
    using dev = client.allocate(2 * MiB, 'cuda-device');
    failNextAsyncCopy(700);
    const err = await dev.stageToHost().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(RdmaError);
    expect(err).toHaveProperty('errnoName', 'EFAULT');
    expect((err as Error).message).toMatch(
      /cudaMemcpyAsync \(device->host, 2097152 bytes at 0\): cudaErrorIllegalAddress/,
    );
    delete process.env.FAKE_CUDART_FAIL;
    await dev.stageToHost();
    await expect(dev.stageToDevice(2 * MiB - 1, 2)).rejects.toThrow(InvalidArgumentError);
  });
});
