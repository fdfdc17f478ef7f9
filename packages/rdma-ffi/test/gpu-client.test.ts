// GpuClient (the cuObjClient-shaped ABI): system memory works end to end with RdmaServer;
// CUDA memory kinds are refused with ENOTSUP in builds without the cuobj provider.

import { describe, expect, it } from 'vitest';
import { GpuClient, parseRdmaToken, RdmaServer, shimInfo } from '../src/index.js';
import { fillPattern, MiB, sha256 } from './helpers.js';

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
    fillPattern(buf.bytes, 5);
    await server.handleGet({ buffer: buf, size: 2 * MiB, token: mem.token(0, 2 * MiB, 'get') });
    expect(sha256(mem.bytes)).toBe(sha256(buf.bytes));
    fillPattern(mem.bytes, 6);
    await server.handlePut({ buffer: buf, size: 2 * MiB, token: mem.token(0, 2 * MiB, 'put') });
    expect(sha256(buf.bytes)).toBe(sha256(mem.bytes));
  });

  it('refuses CUDA memory kinds with ENOTSUP where the cuobj provider is not built', () => {
    if (shimInfo().providers.includes('cuobj')) return; // a vendor build accepts them
    using client = new GpuClient();
    for (const kind of ['cuda-device', 'cuda-managed'] as const) {
      expect(() => client.allocate(MiB, kind)).toThrow(
        expect.objectContaining({ name: 'RdmaError', code: 'ENOTSUP' }),
      );
    }
  });
});
