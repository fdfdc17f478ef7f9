// HostClient on its own (no transfer): native memory shown to JS, tokens that name exactly the
// requested window of a registration, and clear refusals for bad ranges and use after close.

import { InvalidArgumentError } from '@vgwrdma/errors';
import { gidToIpv4, parseRdmaToken, softnicEndpoint } from '@vgwrdma/rdma-protocol';
import { afterAll, describe, expect, it } from 'vitest';
import { HostClient, NativeLoadError, RdmaError } from '../src/index.js';

describe('HostClient', () => {
  const client = new HostClient({ agentAddress: '127.0.0.1', allowDirect: false });
  afterAll(() => client.close());

  it('allocates zeroed native memory and exposes it without copying', () => {
    using mem = client.allocate(3 * 4096 + 5);
    expect(mem.size).toBe(3 * 4096 + 5);
    expect(mem.address % 4096n).toBe(0n);
    expect(mem.bytes.length).toBe(mem.size);
    expect(mem.bytes.every((b) => b === 0)).toBe(true);
    mem.bytes[7] = 42;
    expect(mem.bytes[7]).toBe(42); // same memory on every access
  });

  it('mints canonical tokens naming exactly [offset, offset+size) of the region', () => {
    using mem = client.allocate(1 << 20);
    const raw = mem.token(4096, 1000, 'get');
    expect(raw).toHaveLength(81);
    const t = parseRdmaToken(raw);
    expect(t.addr).toBe(mem.address + 4096n);
    expect(t.size).toBe(1000);
    expect(t.rkey).toBe(mem.rkey);
    expect(softnicEndpoint(t)).toEqual({ host: '127.0.0.1', port: client.agentPort });
    expect(gidToIpv4(t.gid)).toBe('127.0.0.1');
    expect(parseRdmaToken(mem.token(0, 1 << 20, 'put')).length).toBe(1 << 20);
  });

  it('gives every registration its own rkey', () => {
    using a = client.allocate(4096);
    using b = client.allocate(4096);
    expect(a.rkey).not.toBe(b.rkey);
  });

  it('refuses token windows outside the region (EINVAL)', () => {
    using mem = client.allocate(8192);
    for (const [offset, size] of [
      [0, 8193],
      [8192, 1],
      [4096, 4097],
      [0, 0],
    ] as const) {
      expect(() => mem.token(offset, size, 'put')).toThrow(
        expect.objectContaining({ errnoName: 'EINVAL', errno: -22 }),
      );
    }
  });

  it('registers memory it did not allocate, and refuses bad sizes before calling C', () => {
    using owner = client.allocate(2 * 4096);
    using view = client.register(owner.address + 4096n, 4096);
    view.bytes[0] = 9;
    expect(owner.bytes[4096]).toBe(9);
    expect(parseRdmaToken(view.token(0, 4096, 'get')).addr).toBe(owner.address + 4096n);
    expect(() => client.allocate(0)).toThrow(InvalidArgumentError);
    expect(() => client.allocate(2 ** 32)).toThrow(InvalidArgumentError);
  });

  it('after close: bytes and tokens are refused, close is idempotent', () => {
    const mem = client.allocate(4096);
    mem.close();
    mem.close();
    expect(mem.closed).toBe(true);
    expect(() => mem.bytes).toThrow(
      expect.objectContaining({
        code: 'VGW_ERR_INVALID_STATE',
        message: expect.stringMatching(/after close/),
      }),
    );
    expect(() => mem.token(0, 1, 'get')).toThrow(RdmaError);
  });

  it('a closed client refuses work with EBADF', () => {
    const c = new HostClient();
    c.close();
    c.close();
    expect(() => c.allocate(4096)).toThrow(expect.objectContaining({ errnoName: 'EBADF' }));
  });

  it('an explicit shimDir without the library is one clear NativeLoadError', () => {
    expect(() => new HostClient({ shimDir: '/nonexistent' })).toThrow(NativeLoadError);
    expect(() => new HostClient({ shimDir: '/nonexistent' })).toThrow(
      /libvgwrdma_shims\.so not found in shimDir \/nonexistent/,
    );
  });
});
