// rdmaPlugin(): options refused by name before anything native is created, a transport that cannot
// start explained in one message, installing itself into one gateway (CuServer around its backend),
// and a shutdown that closes the pool and the RDMA server but leaves the backend to the gateway.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Backend, UnsupportedBackend } from '@vgwrdma/backend-contract';
import { PosixBackend } from '@vgwrdma/backend-posix';
import { isVgwrdmaError } from '@vgwrdma/errors';
import { createGateway, staticCredentials } from '@vgwrdma/gateway';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  defaultPoolBufCount,
  parseRdmaPluginOptions,
  type RdmaPlugin,
  type RdmaPluginOptions,
  rdmaPlugin,
} from '../src/index.js';

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
  ])('%o is refused naming the field', (options, message) => {
    const thrown = (() => {
      try {
        rdmaPlugin(options as unknown as RdmaPluginOptions);
      } catch (e) {
        return e;
      }
    })();
    expect(isVgwrdmaError(thrown, 'VGW_ERR_INVALID_ARGUMENT')).toBe(true);
    expect((thrown as Error).message).toContain(message);
  });

  it('{ ip } alone is enough: the pool gets --pool-buf-size and --pool-buf-count defaults', () => {
    expect(parseRdmaPluginOptions({ ip: '127.0.0.1' })).toEqual({
      ip: '127.0.0.1',
      poolBufSize: 64 << 20,
      poolBufCount: defaultPoolBufCount(),
    });
    expect(parseRdmaPluginOptions({ ip: '127.0.0.1', poolBufSize: 8192, poolBufCount: 3 })).toMatchObject({
      poolBufSize: 8192,
      poolBufCount: 3,
    });
  });

  it('a cuobj transport this build lacks: rdma-ffi’s one sentence, unchanged', async () => {
    const failure = await catching(() => rdmaPlugin({ ...SMALL, transport: 'cuobj', port: 19100 }).open());
    expect((failure as { code?: string }).code).toBe('VGW_ERR_NATIVE_PROVIDER_UNAVAILABLE');
    expect((failure as Error).message).toMatch(/libcuobjserver\.so/);
    expect((failure as Error).message).not.toContain('cannot start RDMA');
  });

  it('other start failures say what was asked for, from open() or from createGateway()', async () => {
    const options = { ...SMALL, shimDir: join(dir, 'no-shims-here') };
    const explained = /^cannot start RDMA \(softnic on 127\.0\.0\.1, 2 x 65536-byte buffers\): /;
    expect(((await catching(() => rdmaPlugin(options).open())) as Error).message).toMatch(explained);
    const inGateway = await catching(() =>
      createGateway({
        backend: new CountingBackend(),
        credentials: CREDENTIALS,
        plugins: [rdmaPlugin(options)],
      }),
    );
    expect((inGateway as Error).message).toMatch(explained);
  });
});

describe('rdmaPlugin', () => {
  it('opens the transport with the options, and installs CuServer around the gateway backend', async () => {
    const rdma = rdmaPlugin({ ...SMALL, dcKey: 0x77n, poolWaitMs: 10 });
    try {
      expect(rdma.name).toBe('rdma');
      expect(rdma.server.provider).toBe('softnic');
      expect(rdma.server.tunables).toMatchObject({ num_dcis: 2 });
      expect(BigInt(rdma.server.tunables.dc_key)).toBe(0x77n);
      expect(rdma.pool.stats()).toMatchObject({ count: 2, bufferSize: 64 * 1024, free: 2 });
      expect(() => rdma.stats()).toThrow('rdmaPlugin: not installed');
      expect(rdma.readiness()).toEqual({ ok: false, detail: 'not installed in a gateway' });

      const posix = await PosixBackend.open({ root: join(dir, 'root') });
      const { wrapped, added } = install(rdma, posix);
      expect(wrapped.name).toBe('cuserver(posix)');
      expect(added).toEqual(['afterAuthenticate']);
      expect(() => install(rdma, posix)).toThrow('installed twice');
      expect(rdma.stats()).toMatchObject({
        server: { rdmaPuts: 0, channelsInUse: 0, buffersInUse: 0 },
        pool: { count: 2, inUse: 0 },
      });
      expect(rdma.readiness().ok).toBe(true);
      await posix.shutdown();
    } finally {
      await rdma.shutdown();
    }
  });

  it('shutdown() closes pool and server, not the decorated backend; the backend’s shutdown still works after', async () => {
    const rdma = rdmaPlugin(SMALL);
    const inner = new CountingBackend();
    const { wrapped } = install(rdma, inner);
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
    await wrapped.shutdown();
    expect(inner.shutdowns).toBe(1);
  });

  it('in a gateway: one line; shutdown closes the plugin, then the backend', async () => {
    const backend = new CountingBackend();
    const rdma = rdmaPlugin(SMALL);
    const gateway = createGateway({ backend, credentials: CREDENTIALS, plugins: [rdma] });
    const running = await gateway.listen({ port: 0, host: '127.0.0.1' });
    const res = await fetch(`${running.url}/some-bucket`);
    expect(res.status).toBe(403); // unsigned, before any RDMA question
    await gateway.shutdown();
    expect(rdma.pool.closed).toBe(true);
    expect(backend.shutdowns).toBe(1);
  });
});

const CREDENTIALS = staticCredentials([{ access: 'a', secret: 's', account: { role: 'admin' } }]);

/** What the gateway does with a plugin: its install() against a recording stack. */
function install(rdma: RdmaPlugin, backend: Backend): { wrapped: Backend; added: string[] } {
  const added: string[] = [];
  let wrapped = backend;
  rdma.install({
    add: (step) => void added.push(step),
    wrapBackend: (wrap) => {
      wrapped = wrap(wrapped);
    },
  });
  return { wrapped, added };
}

/** What `fn` throws (undefined when it returns). */
const catching = (fn: () => unknown): Promise<unknown> =>
  Promise.resolve()
    .then(fn)
    .then(
      () => undefined,
      (error: unknown) => error,
    );
