// Failures surface as RdmaError with the negative errno and its name, the channel stays usable
// after a failed transfer, and misuse (busy channel, closed server) is refused, not undefined.

import type { RdmaToken } from '@vgwrdma/rdma-protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RdmaError, RdmaServer, type RdmaTransfer } from '../src/index.js';
import { ClientProcess, MiB } from './helpers.js';

/** Awaits a promise that must reject with RdmaError and returns the error. */
async function rdmaError(p: Promise<unknown>): Promise<RdmaError> {
  const e = await p.then(
    () => {
      throw new Error('expected an RdmaError, the call succeeded');
    },
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(RdmaError);
  const r = e as RdmaError;
  expect(r.errno).toBeLessThan(0);
  return r;
}

describe('errors', () => {
  let client: ClientProcess;
  let server: RdmaServer;
  let token: RdmaToken;
  let region: number;

  beforeAll(async () => {
    client = await ClientProcess.start({ allowDirect: false });
    server = new RdmaServer({ channels: 4, ioTimeoutMs: 2000, connectTimeoutMs: 1000 });
    region = (await client.alloc(4 * MiB)).region;
    await client.fill(region, 9);
    token = await client.token(region, 0, 4 * MiB, 'put');
  });
  afterAll(async () => {
    await server?.closeAsync();
    await client?.stop();
  });

  it('a wrong rkey is refused by the agent (EACCES), and the channel still works after', async () => {
    using buf = server.allocateBuffer(MiB);
    using channel = server.allocateChannel();
    const bad = { ...token, rkey: (token.rkey + 1) >>> 0 };
    const e = await rdmaError(server.handlePut({ buffer: buf, size: MiB, token: bad, channel }));
    expect(e.errnoName).toBe('EACCES');
    expect(e.op).toBe('handlePut');
    // the shim's own words about the failure come through the async completion
    expect(e.detail).toMatch(
      /^softnic READ of 1048576 bytes at 0x[0-9a-f]+, agent 127\.0\.0\.1:\d+: the agent refused the rkey$/,
    );
    expect(e.message).toContain(e.detail);
    await expect(server.handlePut({ buffer: buf, size: MiB, token, channel })).resolves.toBe(MiB);
  });

  it('a server with another DC key is refused at connect (EACCES)', async () => {
    const other = new RdmaServer({ channels: 1, dcKey: 0x1234n });
    try {
      using buf = other.allocateBuffer(MiB);
      expect((await rdmaError(other.handlePut({ buffer: buf, size: MiB, token }))).errnoName).toBe('EACCES');
    } finally {
      await other.closeAsync();
    }
  });

  it('windows outside the token or the local buffer are refused before any transfer (EINVAL)', async () => {
    using buf = server.allocateBuffer(MiB);
    const cases: RdmaTransfer[] = [
      { buffer: buf, size: MiB, token, remoteOffset: 4 * MiB - MiB + 1 }, // past the token window
      { buffer: buf, size: MiB, token, localOffset: 1 }, // past the local buffer
      { buffer: buf, size: 2 * MiB, token }, // larger than the buffer
    ];
    for (const c of cases) expect((await rdmaError(server.handlePut(c))).errnoName).toBe('EINVAL');
    expect((await rdmaError(server.handlePut({ buffer: buf, size: 0, token }))).errnoName).toBe('EINVAL');
  });

  it('a native allocation failure (NULL) is an RdmaError, not a bogus buffer', () => {
    expect(() => server.allocateBuffer(2 ** 41)).toThrow(
      expect.objectContaining({ name: 'RdmaError', errnoName: 'EINVAL' }),
    );
  });

  it('a deregistered region can no longer be reached', async () => {
    const r = (await client.alloc(MiB)).region;
    const t = await client.token(r, 0, MiB, 'get');
    await client.call('closeRegion', { region: r });
    using buf = server.allocateBuffer(MiB);
    const e = await rdmaError(server.handleGet({ buffer: buf, size: MiB, token: t }));
    expect(['EACCES', 'ERANGE']).toContain(e.errnoName);
  });

  it('a dead agent fails the transfer with ENODEV (nothing listens any more)', async () => {
    const doomed = await ClientProcess.start({ allowDirect: false });
    const r = (await doomed.alloc(MiB)).region;
    const t = await doomed.token(r, 0, MiB, 'put');
    await doomed.kill();
    const fresh = new RdmaServer({ channels: 1, connectTimeoutMs: 1000 });
    try {
      using buf = fresh.allocateBuffer(MiB);
      const e = await rdmaError(fresh.handlePut({ buffer: buf, size: MiB, token: t }));
      expect(e.code).toBe('VGW_ERR_RDMA_NATIVE');
      expect(e.errnoName).toBe('ENODEV');
      expect(e.detail).toMatch(
        /agent 127\.0\.0\.1:\d+: the agent is unreachable \(connect refused or no route\)$/,
      );
    } finally {
      await fresh.closeAsync();
    }
  });

  it('a stalled agent times out (ETIMEDOUT); its channel refuses a second transfer meanwhile (EBUSY)', async () => {
    const stalled = await ClientProcess.start({ allowDirect: false });
    const r = (await stalled.alloc(MiB)).region;
    const t = await stalled.token(r, 0, MiB, 'put');
    stalled.proc.kill('SIGSTOP'); // the agent thread stops answering; the kernel still accepts
    const s = new RdmaServer({ channels: 2, connectTimeoutMs: 500, ioTimeoutMs: 500 });
    try {
      using a = s.allocateBuffer(MiB);
      using b = s.allocateBuffer(MiB);
      using channel = s.allocateChannel();
      const first = s.handlePut({ buffer: a, size: MiB, token: t, channel });
      // the first cannot finish while the agent is stopped, so the channel is busy now
      expect((await rdmaError(s.handlePut({ buffer: b, size: MiB, token: t, channel }))).errnoName).toBe(
        'EBUSY',
      );
      const timedOut = await rdmaError(first);
      expect(timedOut.errnoName).toBe('ETIMEDOUT');
      expect(timedOut.detail).toMatch(/timed out|stopped answering/);
      // after the failure the channel is free again
      stalled.proc.kill('SIGCONT');
      await expect(s.handlePut({ buffer: a, size: MiB, token: t, channel })).resolves.toBe(MiB);
    } finally {
      stalled.proc.kill('SIGCONT');
      await s.closeAsync();
      await stalled.stop();
    }
  });

  it('token fields the shim cannot use are refused at submit, in its words', async () => {
    using buf = server.allocateBuffer(MiB);
    const cases: [Partial<RdmaToken>, string, RegExp][] = [
      [{ gidPresent: false }, 'EAFNOSUPPORT', /IPv4-mapped GID/],
      [{ gid: new Uint8Array(16).fill(1) }, 'EAFNOSUPPORT', /IPv4-mapped GID/],
      [{ dctn: 0 }, 'EINVAL', /DCTN 0 is not a TCP port/],
      [{ size: 0 }, 'EINVAL', /token size field is 0/],
      [{ dctn: 0x100_0000 }, 'EINVAL', /exceeds 24 bits/],
    ];
    for (const [change, code, text] of cases) {
      const e = await rdmaError(server.handlePut({ buffer: buf, size: MiB, token: { ...token, ...change } }));
      expect({ errnoName: e.errnoName, detail: e.detail }).toEqual({
        errnoName: code,
        detail: expect.stringMatching(text),
      });
    }
  });

  it('close() refuses while transfers run, closeAsync() waits; a closed server refuses work (EBADF)', async () => {
    const s = new RdmaServer({ channels: 2 });
    const buf = s.allocateBuffer(4 * MiB);
    const running = s.handlePut({ buffer: buf, size: 4 * MiB, token });
    expect(() => s.close()).toThrow(expect.objectContaining({ errnoName: 'EBUSY' }));
    await s.closeAsync();
    await expect(running).resolves.toBe(4 * MiB);
    expect(buf.closed).toBe(true);
    expect(() => buf.bytes).toThrow(/after close/);
    expect(() => s.allocateBuffer(16)).toThrow(expect.objectContaining({ errnoName: 'EBADF' }));
  });
});
