// rdmaPlugin(): options refused by name before anything native is created, a transport that cannot
// start explained in one message, one wrap per plugin, and a shutdown that closes the pool and the
// RDMA server but leaves the wrapped backend to the gateway.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UnsupportedBackend } from '@vgwrdma/backend-contract';
import { PosixBackend } from '@vgwrdma/backend-posix';
import { createGateway, staticCredentials } from '@vgwrdma/gateway';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CuServer, type RdmaPluginOptions, rdmaPlugin } from '../src/index.js';

const SMALL = { ip: '127.0.0.1', poolBufSize: 64 * 1024, poolBufCount: 2, numDcis: 2 } as const;

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cu-plugin-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A backend that counts its shutdowns. */
class CountingBackend extends UnsupportedBackend {
  shutdowns = 0;
  override async shutdown(): Promise<void> {
    this.shutdowns++;
  }
}

describe('rdmaPlugin options', () => {
  it.each([
    [{ ...SMALL, poolBufCount: 0 }, 'rdmaPlugin: poolBufCount: '],
    [{ ...SMALL, poolBufSize: 1.5 }, 'rdmaPlugin: poolBufSize: '],
    [{ ...SMALL, transport: 'verbs' }, 'rdmaPlugin: transport: '],
    [{ ...SMALL, retryCount: 8 }, 'rdmaPlugin: retryCount: '],
    [{ ...SMALL, getLanes: 3 }, 'rdmaPlugin: getLanes: '],
    [{ ...SMALL, allowAgents: ['10.0.0.0/33'] }, 'rdmaPlugin: allowAgents.0: '],
    [{ ...SMALL, poolBufSizes: 4096 }, 'rdmaPlugin: options: Unrecognized key: "poolBufSizes"'],
    [{ ip: '127.0.0.1' }, 'rdmaPlugin: poolBufSize: '],
  ])('%o is refused naming the field', async (options, message) => {
    await expect(rdmaPlugin(options as unknown as RdmaPluginOptions)).rejects.toThrow(message);
  });

  it('a cuobj transport this build lacks: rdma-ffi’s one sentence, unchanged', async () => {
    const failure = await rdmaPlugin({ ...SMALL, transport: 'cuobj', port: 19100 }).catch((e: unknown) => e);
    expect((failure as { code?: string }).code).toBe('VGW_ERR_NATIVE_PROVIDER_UNAVAILABLE');
    expect((failure as Error).message).toMatch(/libcuobjserver\.so/);
    expect((failure as Error).message).not.toContain('cannot start RDMA');
  });

  it('other start failures say what was asked for', async () => {
    const failure = await rdmaPlugin({ ...SMALL, shimDir: join(dir, 'no-shims-here') }).catch(
      (e: unknown) => e,
    );
    expect((failure as Error).message).toMatch(
      /^cannot start RDMA \(softnic on 127\.0\.0\.1, 2 x 65536-byte buffers\): /,
    );
  });
});

describe('rdmaPlugin', () => {
  it('opens the transport with the options and wraps one backend in CuServer', async () => {
    const rdma = await rdmaPlugin({ ...SMALL, dcKey: 0x77n, poolWaitMs: 10 });
    try {
      expect(rdma.name).toBe('rdma');
      expect(rdma.server.provider).toBe('softnic');
      expect(rdma.server.tunables).toMatchObject({ num_dcis: 2 });
      expect(BigInt(rdma.server.tunables.dc_key)).toBe(0x77n);
      expect(rdma.pool.stats()).toMatchObject({ count: 2, bufferSize: 64 * 1024, free: 2 });
      expect(() => rdma.stats()).toThrow('wrap() the gateway backend first');

      const posix = await PosixBackend.open({ root: join(dir, 'root') });
      const cu = rdma.wrap(posix);
      expect(cu).toBeInstanceOf(CuServer);
      expect(cu.name).toBe('cuserver(posix)');
      expect(cu.bufferPool).toBe(rdma.pool);
      expect(() => rdma.wrap(posix)).toThrow('wrap() was already called');
      expect(rdma.stats()).toMatchObject({
        server: { rdmaPuts: 0, channelsInUse: 0, buffersInUse: 0 },
        pool: { count: 2, inUse: 0 },
      });
      await posix.shutdown();
    } finally {
      await rdma.shutdown();
    }
  });

  it('shutdown() closes pool and server, not the wrapped backend; the backend’s shutdown still works after', async () => {
    const rdma = await rdmaPlugin(SMALL);
    const inner = new CountingBackend();
    const cu = rdma.wrap(inner);
    const lease = await rdma.pool.acquire();
    let closed = false;
    const closing = rdma.shutdown().then(() => {
      closed = true;
    });
    // A leased buffer holds the shutdown until it comes back.
    await new Promise((r) => setTimeout(r, 30));
    expect(closed).toBe(false);
    lease.release();
    await closing;
    expect(rdma.pool.closed).toBe(true);
    expect(rdma.server.connected).toBe(false);
    expect(inner.shutdowns).toBe(0);
    expect(rdma.shutdown()).toBe(rdma.shutdown());
    await cu.shutdown();
    expect(inner.shutdowns).toBe(1);
    expect(() => rdma.wrap(inner)).toThrow('wrap() after shutdown()');
  });

  it('in a gateway whose backend it did not wrap, every request fails instead of ignoring RDMA', async () => {
    const rdma = await rdmaPlugin(SMALL);
    const backend = new CountingBackend();
    const gateway = createGateway({
      backend,
      plugins: [rdma],
      credentials: staticCredentials([{ access: 'a', secret: 's', account: { role: 'admin' } }]),
      logger: { info() {}, warn() {}, error() {}, debug() {} },
    });
    const running = await gateway.listen({ port: 0, host: '127.0.0.1' });
    const res = await fetch(`${running.url}/some-bucket`);
    expect(res.status).toBe(500);
    expect(await res.text()).toContain('<Code>InternalError</Code>');
    await gateway.shutdown();
    expect(rdma.pool.closed).toBe(true);
    expect(backend.shutdowns).toBe(1);
  });
});
