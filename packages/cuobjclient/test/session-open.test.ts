// Session.open: size limits, memory kinds, and the environment reaching the agent.

import { type AddressInfo, createServer } from 'node:net';
import { parseRdmaToken, softnicEndpoint } from '@vgwrdma/rdma-ffi';
import { describe, expect, it } from 'vitest';
import {
  CuObjError,
  DEFAULT_MAX_SESSION_SIZE,
  Session,
  type SessionOptions,
  TOKEN_CAPACITY,
} from '../src/index.js';

async function openError(o: SessionOptions): Promise<CuObjError> {
  try {
    (await Session.open(o)).close();
  } catch (e) {
    if (e instanceof CuObjError) return e;
    throw e;
  }
  throw new Error('expected Session.open to fail');
}

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
      'ERR_CUOBJ_INVALID_OPTION',
      expect.stringMatching(/exceeds the session limit 1073741824 \(raise it with maxSize/),
    ]);
    expect((await openError({ size: 2 ** 30 + 1, maxSize: TOKEN_CAPACITY + 1 })).message).toMatch(
      /maxSize must be/,
    );
    expect((await openError({ size: TOKEN_CAPACITY + 1, maxSize: TOKEN_CAPACITY })).message).toMatch(
      /token capacity/,
    );
    for (const size of [0, -1, 1.5, Number.NaN])
      expect((await openError({ size })).code).toBe('ERR_CUOBJ_INVALID_OPTION');
  });

  it("memory: 'cuda' says it is not available in this build", async () => {
    const e = await openError({ size: 4096, memory: 'cuda' });
    expect(e.code).toBe('ERR_CUOBJ_UNAVAILABLE');
    expect(e.message).toMatch(/'cuda' is not available in this build/);
  });

  it('environment settings reach the agent: the token advertises the configured address and port', async () => {
    const port = await freePort();
    await using s = await Session.open({
      size: 4096,
      env: { VGWRDMA_SOFTNIC_AGENT_ADDR: '127.0.0.1', VGWRDMA_SOFTNIC_AGENT_PORT: String(port) },
    });
    // The token is only visible on the wire; mint one the way upload() does, through a scripted request.
    const token = (
      s as unknown as { region: { token(o: number, n: number, op: 'put'): string } }
    ).region.token(0, 4096, 'put');
    expect(softnicEndpoint(parseRdmaToken(token))).toEqual({ host: '127.0.0.1', port });
    expect(s.buffer.length).toBe(4096);
  });
});
