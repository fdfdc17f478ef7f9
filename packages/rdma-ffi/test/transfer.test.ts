// Real softnic transfers between an RdmaServer (this process) and a HostClient in a child
// process, on both paths: same-host direct (process_vm_*) and TCP. Byte-exact both ways, at
// offsets and through the override suffix; the server's counters prove which path moved them.

import { formatRdmaToken, parseRdmaToken, withWindow } from '@vgwrdma/rdma-protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RdmaServer } from '../src/index.js';
import { ClientProcess, fillPattern, MiB, pattern, sha256 } from './helpers.js';

const PATHS = [
  { name: 'direct', allowDirect: true },
  { name: 'tcp', allowDirect: false },
] as const;

describe.each(PATHS)('softnic $name path', ({ allowDirect }) => {
  let client: ClientProcess;
  let server: RdmaServer;

  beforeAll(async () => {
    client = await ClientProcess.start({ allowDirect });
    server = new RdmaServer({ channels: 4, allowDirect });
  });
  afterAll(async () => {
    await server?.closeAsync();
    await client?.stop();
  });

  it('PUT: reads the client region byte for byte (RDMA READ)', async () => {
    const size = 8 * MiB + 123;
    const { region } = await client.alloc(size);
    await client.fill(region, 11);
    const token = await client.token(region, 0, size, 'put');
    using buf = server.allocateBuffer(size);
    const before = server.stats();
    await expect(server.handlePut({ buffer: buf, size, token })).resolves.toBe(size);
    expect(sha256(buf.bytes)).toBe(await client.sha256(region));
    const after = server.stats();
    if (allowDirect) expect(after.directBytes - before.directBytes).toBe(size);
    else expect(after.tcpBytes - before.tcpBytes).toBe(size);
  });

  it('GET: writes into the client region byte for byte (RDMA WRITE)', async () => {
    const size = 8 * MiB + 321;
    const { region } = await client.alloc(size);
    const token = await client.token(region, 0, size, 'get');
    using buf = server.allocateBuffer(size);
    fillPattern(buf.bytes, 22);
    await expect(server.handleGet({ buffer: buf, size, token })).resolves.toBe(size);
    expect(await client.sha256(region)).toBe(sha256(buf.bytes));
  });

  it('moves a window at local and remote offsets, touching nothing outside it', async () => {
    const regionSize = 4 * MiB;
    const { region } = await client.alloc(regionSize);
    // token for [1 MiB, 3 MiB) of the region; move 1 MiB + 5 at remote offset 4096 of that window
    const token = await client.token(region, MiB, 2 * MiB, 'get');
    using buf = server.allocateBuffer(2 * MiB);
    fillPattern(buf.bytes, 33);
    const size = MiB + 5;
    await server.handleGet({ buffer: buf, localOffset: 777, size, token, remoteOffset: 4096 });
    const start = MiB + 4096;
    expect(await client.sha256(region, start, size)).toBe(sha256(buf.bytes.subarray(777, 777 + size)));
    const zeros = sha256(new Uint8Array(start));
    expect(await client.sha256(region, 0, start)).toBe(zeros);
    const tail = regionSize - start - size;
    expect(await client.sha256(region, start + size, tail)).toBe(sha256(new Uint8Array(tail)));
  });

  it('honours the suffixed override form (address and size replaced)', async () => {
    const { region, address } = await client.alloc(2 * MiB);
    await client.fill(region, 44);
    const whole = await client.token(region, 0, 2 * MiB, 'put');
    const size = 64 * 1024;
    const token = parseRdmaToken(
      formatRdmaToken(whole, {
        override: { addr: address + BigInt(MiB), size: BigInt(size) },
        semicolon: true,
      }),
    );
    using buf = server.allocateBuffer(size);
    await expect(server.handlePut({ buffer: buf, size, token })).resolves.toBe(size);
    const expected = Buffer.alloc(2 * MiB)
      .fill(pattern(44))
      .subarray(MiB, MiB + size);
    expect(sha256(buf.bytes)).toBe(sha256(expected));
  });

  it('honours a window set on the parsed token (the legacy trio), and nothing outside it', async () => {
    const { region, address } = await client.alloc(2 * MiB);
    await client.fill(region, 45);
    const window = withWindow(await client.token(region, 0, 2 * MiB, 'put'), address + 4096n, 8192);
    using buf = server.allocateBuffer(16384);
    await expect(server.handlePut({ buffer: buf, size: 8192, token: window })).resolves.toBe(8192);
    expect(sha256(buf.bytes.subarray(0, 8192))).toBe(await client.sha256(region, 4096, 8192));
    // one byte past the window is refused by the shim before anything moves
    const e = await server.handlePut({ buffer: buf, size: 8193, token: window }).catch((x: unknown) => x);
    expect(e).toMatchObject({
      name: 'RdmaError',
      errnoName: 'EINVAL',
      detail: expect.stringMatching(/outside the token/),
    });
  });

  it('splits a transfer larger than maxBytesPerCall into exact consecutive calls', async () => {
    const split = new RdmaServer({ channels: 1, allowDirect, maxBytesPerCall: MiB + 3 });
    try {
      const size = 5 * MiB + 11;
      const { region } = await client.alloc(6 * MiB);
      const token = await client.token(region, 0, 6 * MiB, 'get');
      using buf = split.allocateBuffer(6 * MiB);
      fillPattern(buf.bytes, 66);
      const before = split.stats();
      await expect(
        split.handleGet({ buffer: buf, localOffset: 5, size, token, remoteOffset: 9 }),
      ).resolves.toBe(size);
      const after = split.stats();
      const calls = after.directTransfers + after.tcpTransfers - before.directTransfers - before.tcpTransfers;
      expect(calls).toBe(Math.ceil(size / (MiB + 3)));
      expect(await client.sha256(region, 9, size)).toBe(sha256(buf.bytes.subarray(5, 5 + size)));
      expect(await client.sha256(region, 0, 9)).toBe(sha256(new Uint8Array(9)));
    } finally {
      await split.closeAsync();
    }
  });

  it('runs several transfers on one explicit channel, one after another', async () => {
    const { region } = await client.alloc(MiB);
    await client.fill(region, 55);
    using channel = server.allocateChannel();
    using buf = server.allocateBuffer(MiB);
    const token = await client.token(region, 0, MiB, 'put');
    for (let i = 0; i < 4; i++) {
      buf.bytes.fill(0);
      await server.handlePut({ buffer: buf, size: MiB, token, channel });
      expect(sha256(buf.bytes)).toBe(await client.sha256(region));
    }
  });
});

describe('direct-path withdrawal', () => {
  it('a client that forbids direct access is served over TCP from its next transfer on', async () => {
    const client = await ClientProcess.start({ allowDirect: true });
    const server = new RdmaServer({ channels: 1, allowDirect: true });
    try {
      const { region } = await client.alloc(MiB);
      await client.fill(region, 77);
      const token = await client.token(region, 0, MiB, 'put');
      using buf = server.allocateBuffer(MiB);
      await server.handlePut({ buffer: buf, size: MiB, token });
      expect(server.stats()).toMatchObject({ directTransfers: 1, tcpTransfers: 0 });
      await client.call('setDirect', { allow: false });
      buf.bytes.fill(0);
      await server.handlePut({ buffer: buf, size: MiB, token });
      expect(server.stats()).toMatchObject({ directTransfers: 1, tcpTransfers: 1 });
      expect(sha256(buf.bytes)).toBe(await client.sha256(region));
    } finally {
      await server.closeAsync();
      await client.stop();
    }
  });
});
