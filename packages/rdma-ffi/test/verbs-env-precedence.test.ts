// The verbs host client's settings: an option given in code wins over vgwrdma's environment
// variables (VGWRDMA_RDMA_DEV / _RDMA_PORT / _GID_INDEX), which fill only what the code left out;
// the defaults are the first device, port 1 and an automatic GID. On a host without RDMA hardware
// the C side answers ENODEV and names the settings it resolved, which is what this reads.
import { afterEach, describe, expect, it } from 'vitest';
import { HostClient, RdmaError, shimInfo } from '../src/index.js';

const VARS = ['VGWRDMA_RDMA_DEV', 'VGWRDMA_RDMA_PORT', 'VGWRDMA_GID_INDEX', 'VGWRDMA_DC_KEY'] as const;
const saved = Object.fromEntries(VARS.map((v) => [v, process.env[v]]));

/** The ENODEV message of a verbs client, or undefined on a host where one can open (real NIC). */
function resolvedSettings(options: ConstructorParameters<typeof HostClient>[0]): string | undefined {
  try {
    new HostClient(options).close();
    return undefined;
  } catch (e) {
    expect(e).toBeInstanceOf(RdmaError);
    return (e as RdmaError).message;
  }
}

const verbsBuilt = shimInfo().providers.includes('verbs');

describe.skipIf(!verbsBuilt)('verbs client settings: code, then environment, then defaults', () => {
  afterEach(() => {
    for (const v of VARS) {
      if (saved[v] === undefined) delete process.env[v];
      else process.env[v] = saved[v];
    }
  });

  it('defaults: the first device, port 1, automatic GID (-1)', (ctx) => {
    for (const v of VARS) delete process.env[v];
    const m = resolvedSettings({ provider: 'verbs' });
    if (m === undefined || !/no RDMA device/.test(m)) return ctx.skip(`this host has an RDMA device: ${m}`);
    expect(m).toMatch(/wanted the first device, port 1, GID index -1\)/);
  });

  it('the environment fills what the code left out', (ctx) => {
    process.env.VGWRDMA_RDMA_DEV = 'envdev0';
    process.env.VGWRDMA_RDMA_PORT = '3';
    process.env.VGWRDMA_GID_INDEX = '7';
    const m = resolvedSettings({ provider: 'verbs' });
    if (m === undefined || !/no RDMA device/.test(m)) return ctx.skip(`this host has an RDMA device: ${m}`);
    expect(m).toMatch(/wanted device envdev0, port 3, GID index 7\)/);
  });

  it('options given in code win over the environment, also when they equal the defaults', (ctx) => {
    process.env.VGWRDMA_RDMA_DEV = 'envdev0';
    process.env.VGWRDMA_RDMA_PORT = '3';
    process.env.VGWRDMA_GID_INDEX = '7';
    const m = resolvedSettings({ provider: 'verbs', deviceName: 'codedev1', portNum: 1, gidIndex: -1 });
    if (m === undefined || !/no RDMA device/.test(m)) return ctx.skip(`this host has an RDMA device: ${m}`);
    expect(m).toMatch(/wanted device codedev1, port 1, GID index -1\)/);
    // one option in code, the others from the environment
    const one = resolvedSettings({ provider: 'verbs', portNum: 2 });
    expect(one).toMatch(/wanted device envdev0, port 2, GID index 7\)/);
  });

  it('a bad variable is an error naming it, even when the code sets that field', () => {
    process.env.VGWRDMA_RDMA_PORT = 'x';
    const m = resolvedSettings({ provider: 'verbs', portNum: 1 });
    expect(m).toMatch(/VGWRDMA_RDMA_PORT='x' is not an HCA port number/);
  });
});
