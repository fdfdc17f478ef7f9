// Session.open: size limits, memory kinds, and the environment reaching the agent.

import { type AddressInfo, createServer } from 'node:net';
import { parseRdmaToken, softnicEndpoint } from '@vgwrdma/rdma-protocol';
import { describe, expect, it } from 'vitest';
import { DEFAULT_MAX_SESSION_SIZE, Session, TOKEN_CAPACITY } from '../src/index.js';
import { openError } from './cuobj-errors.js';

/** A loopback port free a moment ago. */
async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as AddressInfo;
  await new Promise((r) => s.close(r));
  return port;
}

describe('Session.open', () => {
  it('limits: 1 GiB by default, raisable to 4 GiB − 64 KiB, never beyond', async () => {
    expect(DEFAULT_MAX_SESSION_SIZE).toBe(2 ** 30);
    expect(TOKEN_CAPACITY).toBe(2 ** 32 - 2 ** 16);
    const over = await openError({ size: 2 ** 30 + 1 });
    expect([over.code, over.message]).toEqual([
      'VGW_ERR_CUOBJ_INVALID_OPTION',
      expect.stringMatching(/exceeds the session limit 1073741824 \(raise it with maxSize/),
    ]);
    expect((await openError({ size: 2 ** 30 + 1, maxSize: TOKEN_CAPACITY + 1 })).message).toMatch(
      /maxSize must be/,
    );
    expect((await openError({ size: TOKEN_CAPACITY + 1, maxSize: TOKEN_CAPACITY })).message).toMatch(
      /token capacity/,
    );
    for (const size of [0, -1, 1.5, Number.NaN])
      expect((await openError({ size })).code).toBe('VGW_ERR_CUOBJ_INVALID_OPTION');
  });

  it("memory: 'cuda' without a CUDA runtime is one clear error naming what was tried", async () => {
    const e = await openError({ size: 4096, memory: 'cuda', cudaLibrary: '/nonexistent/libcudart.so.13' });
    expect(e.code).toBe('VGW_ERR_CUOBJ_UNAVAILABLE');
    expect(e.message).toMatch(
      /memory: 'cuda' needs a CUDA runtime and device: .*no CUDA runtime: \/nonexistent\/libcudart\.so\.13/,
    );
    const viaEnv = await openError({
      size: 4096,
      memory: 'cuda',
      env: { VGWRDMA_CUDA_LIB: '/nonexistent/libcudart.so' },
    });
    expect(viaEnv.message).toMatch(/no CUDA runtime: \/nonexistent\/libcudart\.so/);
  });

  it('CUDA options on a host session, bad devices and memory kinds are refused before anything opens', async () => {
    expect((await openError({ size: 4096, device: 0 })).message).toMatch(
      /device only apply to memory: 'cuda'/,
    );
    expect((await openError({ size: 4096, devicePtr: 1n, staging: { streams: 2 } })).message).toMatch(
      /devicePtr, staging only apply/,
    );
    for (const o of [
      { device: -1 },
      { device: 1.5 },
      { devicePtr: 0n },
      { memory: 'gpu' as unknown as 'cuda' },
    ]) {
      expect((await openError({ size: 4096, memory: 'cuda', ...o })).code).toBe(
        'VGW_ERR_CUOBJ_INVALID_OPTION',
      );
    }
  });

  it('a host session has no devicePtr', async () => {
    await using s = await Session.open({ size: 4096 });
    expect(() => s.devicePtr).toThrow(expect.objectContaining({ code: 'VGW_ERR_CUOBJ_WRONG_MEMORY' }));
    expect(() => s.copyToDevice(new Uint8Array(1))).toThrow(/memory: 'host' session/);
  });

  it('environment settings reach the agent: the token advertises the configured address and port', async () => {
    const port = await freePort();
    await using s = await Session.open({
      size: 4096,
      env: { VGWRDMA_SOFTNIC_AGENT_ADDR: '127.0.0.1', VGWRDMA_SOFTNIC_AGENT_PORT: String(port) },
    });
    // The token is only visible on the wire; mint one the way upload() does, through a scripted request.
    const token = (
      s as unknown as { mem: { region: { token(o: number, n: number, op: 'put'): string } } }
    ).mem.region.token(0, 4096, 'put');
    expect(softnicEndpoint(parseRdmaToken(token))).toEqual({ host: '127.0.0.1', port });
    expect(s.buffer.length).toBe(4096);
  });
});
