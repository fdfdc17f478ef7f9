// Hardware providers as rdma-ffi sees them on a machine without RDMA hardware or NVIDIA's
// cuObject libraries: cuobj refuses with one sentence naming the missing library (a typed
// NativeLoadError, before any native object exists); verbs, where built, refuses a client with
// ENODEV and says there is no RDMA device.

import { describe, expect, it } from 'vitest';
import { HostClient, NativeLoadError, RdmaError, RdmaServer, shimInfo } from '../src/index.js';

function thrown(f: () => unknown): unknown {
  try {
    f();
  } catch (e) {
    return e;
  }
  throw new Error('did not throw');
}

describe('hardware providers (no RDMA hardware here)', () => {
  it('cuobj server: VGW_ERR_NATIVE_PROVIDER_UNAVAILABLE, one sentence naming libcuobjserver.so', () => {
    if (shimInfo().providers.includes('cuobj')) return; // a host with the vendor library
    const e = thrown(() => new RdmaServer({ provider: 'cuobj', channels: 2 }));
    expect(e).toBeInstanceOf(NativeLoadError);
    const err = e as NativeLoadError;
    expect(err.code).toBe('VGW_ERR_NATIVE_PROVIDER_UNAVAILABLE');
    expect(err.message).toMatch(/^cuobj transport unavailable: .*libcuobjserver\.so/);
    expect(err.message).not.toContain('\n');
  });

  it('softnic stays available and lists itself', () => {
    expect(shimInfo().providers).toContain('softnic');
    const s = new RdmaServer({ provider: 'softnic', channels: 1 });
    expect(s.provider).toBe('softnic');
    s.close();
  });

  it('verbs host client, where built: ENODEV "no RDMA device"', () => {
    if (!shimInfo().providers.includes('verbs')) return; // built without rdma-core headers
    let e: unknown;
    try {
      new HostClient({ provider: 'verbs' }).close(); // a host with a ConnectX port: it works
      return;
    } catch (err) {
      e = err;
    }
    expect(e).toBeInstanceOf(RdmaError);
    expect((e as RdmaError).errnoName).toBe('ENODEV');
    expect((e as RdmaError).message).toMatch(/verbs provider: (no RDMA device|.*cannot be loaded)/);
  });
});

describe('cuobj client provider (no NVIDIA library here)', () => {
  it('GpuClient with provider cuobj: ENODEV naming libcuobjclient.so', async () => {
    if (shimInfo().providers.includes('cuobj')) return; // a host with the vendor library
    const { GpuClient } = await import('../src/index.js');
    const e = thrown(() => new GpuClient({ provider: 'cuobj' }));
    expect(e).toBeInstanceOf(RdmaError);
    expect((e as RdmaError).errnoName).toBe('ENODEV');
    expect((e as RdmaError).message).toMatch(/cuobj transport unavailable: NVIDIA libcuobjclient\.so/);
  });
});
