// Progress gates (ABI 1.9) through rdma-ffi: the ProgressGate API's own checks, and a gateway
// READ (RdmaServer in this process, both paths) that is answered only once its bytes are
// published, refused after the stall timeout, and a download's landed word; overlapped staging
// of device memory on the fake CUDA runtime stops when the download is abandoned.

import { setTimeout as sleep } from 'node:timers/promises';
import { InvalidArgumentError } from '@vgwrdma/errors';
import { parseRdmaToken } from '@vgwrdma/rdma-protocol';
import { describe, expect, it } from 'vitest';
import { GpuClient, HostClient, RdmaError, RdmaServer } from '../src/index.js';
import { FAKE_CUDART } from './cuda-fake.js';
import { fillPattern, MiB, pattern, sha256 } from './helpers.js';

describe('ProgressGate', () => {
  it('arms, publishes (never lowering, never past the size) and shows the raw word', () => {
    using client = new HostClient();
    using mem = client.allocate(MiB);
    const gate = mem.progress;
    expect(gate.value).toBe(0);
    gate.arm('upload', { stallTimeoutMs: 1000 });
    gate.publish(4096);
    gate.publish(100); // lower: ignored
    expect(gate.value).toBe(4096);
    expect(gate.word[0]).toBe(4096n);
    expect(() => gate.publish(MiB + 1)).toThrow(expect.objectContaining({ errnoName: 'ERANGE' }));
    expect(() => gate.publish(-1)).toThrow(InvalidArgumentError);
    expect(() => gate.arm('upload', { stallTimeoutMs: -5 })).toThrow(InvalidArgumentError);
    gate.arm('download');
    expect([gate.value, gate.served]).toEqual([0, 0]);
    mem.close();
    expect(() => mem.progress).toThrow(expect.objectContaining({ errnoName: 'EBADF' }));
  });

  describe.each([
    { path: 'direct', allowDirect: true },
    { path: 'TCP', allowDirect: false },
  ])('$path path', ({ allowDirect }) => {
    it('a READ waits for the published bytes; a stalled one is refused with ETIME', async () => {
      using client = new HostClient({ allowDirect });
      await using server = new RdmaServer({ channels: 2, allowDirect });
      using mem = client.allocate(2 * MiB);
      using buf = server.allocateBuffer(MiB);
      mem.bytes.fill(0xee);
      mem.progress.arm('upload', { stallTimeoutMs: 5000 });
      const token = parseRdmaToken(mem.token(0, MiB, 'put'));
      let settled = false;
      const put = server.handlePut({ buffer: buf, size: MiB, token });
      put.then(
        () => (settled = true),
        () => (settled = true),
      );
      await sleep(100);
      expect(settled).toBe(false); // held back: nothing published yet
      expect(mem.progress.served).toBe(0);
      const data = pattern(3).subarray(0, MiB);
      mem.bytes.set(data);
      mem.progress.publish(MiB);
      await expect(put).resolves.toBe(MiB);
      expect(sha256(buf.bytes)).toBe(sha256(data));

      mem.progress.arm('upload', { stallTimeoutMs: 100 });
      const err = await server.handlePut({ buffer: buf, size: MiB, token }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(RdmaError);
      expect(err).toMatchObject({ errnoName: 'ETIME' });
      expect((err as RdmaError).detail).toMatch(/staging stalled/);
    });

    it("a download's landed word follows the WRITEs", async () => {
      using client = new HostClient({ allowDirect });
      await using server = new RdmaServer({ channels: 2, allowDirect });
      using mem = client.allocate(2 * MiB);
      using buf = server.allocateBuffer(2 * MiB);
      fillPattern(buf.bytes, 9);
      mem.progress.arm('download');
      const t = parseRdmaToken(mem.token(0, 2 * MiB, 'get'));
      await server.handleGet({ buffer: buf, size: MiB, token: t, localOffset: MiB, remoteOffset: MiB });
      expect(mem.progress.value).toBe(0); // the second MiB landed, the first not yet
      await server.handleGet({ buffer: buf, size: MiB, token: t });
      expect(mem.progress.value).toBe(2 * MiB);
      expect(sha256(mem.bytes)).toBe(sha256(buf.bytes));
    });
  });

  it('overlapped device staging: an abandoned download stops with ECANCELED (fake CUDA runtime)', async () => {
    using client = new GpuClient();
    client.configureCuda({ library: FAKE_CUDART });
    using dev = client.allocate(2 * MiB, 'cuda-device');
    await expect(dev.stageToDeviceOverlapped()).rejects.toMatchObject({ errnoName: 'EINVAL' }); // not armed
    dev.progress.arm('download');
    const copies = dev.stageToDeviceOverlapped(2 * MiB, MiB);
    await sleep(20);
    dev.progress.arm('failed');
    await expect(copies).rejects.toMatchObject({ errnoName: 'ECANCELED' });
    dev.progress.arm('upload');
    await expect(dev.stageToHostOverlapped(2 * MiB, MiB)).resolves.toBeUndefined();
    expect(dev.progress.value).toBe(2 * MiB);
  });
});
