import { VgwrdmaError } from '@vgwrdma/errors';
import { describe, expect, it } from 'vitest';
import { CuObjError } from '../src/errors.js';
import { HOST_ENV_VARS, hostOptionsFromEnv } from '../src/host-env.js';

describe('hostOptionsFromEnv', () => {
  it('maps every variable to its HostClient option', () => {
    expect(
      hostOptionsFromEnv({
        VGWRDMA_RDMA_DEV: 'mlx5_1',
        VGWRDMA_RDMA_PORT: '2',
        VGWRDMA_GID_INDEX: '0',
        VGWRDMA_DC_KEY: '0xABCDEF',
        VGWRDMA_SOFTNIC_AGENT_ADDR: '10.0.0.7',
        VGWRDMA_SOFTNIC_AGENT_PORT: '18515',
        VGWRDMA_SOFTNIC_DIRECT: 'off',
        VGWRDMA_SOFTNIC_IO_TIMEOUT_MS: '2500',
      }),
    ).toEqual({
      deviceName: 'mlx5_1',
      provider: 'verbs',
      portNum: 2,
      gidIndex: 0,
      dcKey: 0xabcdefn,
      agentAddress: '10.0.0.7',
      agentPort: 18515,
      allowDirect: false,
      ioTimeoutMs: 2500,
    });
  });

  it('an empty environment gives no options; VGWRDMA_PROVIDER beats the device implying verbs', () => {
    expect(hostOptionsFromEnv({})).toEqual({});
    expect(hostOptionsFromEnv({ VGWRDMA_RDMA_DEV: 'mlx5_0', VGWRDMA_PROVIDER: 'softnic' }).provider).toBe(
      'softnic',
    );
    expect(hostOptionsFromEnv({ VGWRDMA_DC_KEY: '12345' }).dcKey).toBe(12345n);
  });

  it('VGWRDMA_GID_INDEX=-1 asks for automatic GID choice; VGWRDMA_PROVIDER=cuobj selects the vendor client', () => {
    expect(hostOptionsFromEnv({ VGWRDMA_GID_INDEX: '-1' }).gidIndex).toBe(-1);
    expect(hostOptionsFromEnv({ VGWRDMA_PROVIDER: 'cuobj' }).provider).toBe('cuobj');
  });

  it.each([
    ['VGWRDMA_RDMA_PORT', '0'],
    ['VGWRDMA_GID_INDEX', 'x'],
    ['VGWRDMA_DC_KEY', '0x1ffffffffffffffff'],
    ['VGWRDMA_GID_INDEX', '-2'],
    ['VGWRDMA_PROVIDER', 'rxe'],
    ['VGWRDMA_SOFTNIC_AGENT_ADDR', '300.1.1.1'],
    ['VGWRDMA_SOFTNIC_AGENT_PORT', '70000'],
    ['VGWRDMA_SOFTNIC_DIRECT', 'maybe'],
  ])('%s=%s is refused, naming the variable', (name, value) => {
    let err: unknown;
    try {
      hostOptionsFromEnv({ [name]: value });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(CuObjError);
    expect(err).toBeInstanceOf(VgwrdmaError);
    expect((err as CuObjError).code).toBe('VGW_ERR_CUOBJ_INVALID_OPTION');
    expect((err as CuObjError).message).toContain(`${name}=${value}`);
  });

  it('the table names every variable the README documents', () => {
    expect(HOST_ENV_VARS.map((v) => v.name)).toEqual([
      'VGWRDMA_RDMA_DEV',
      'VGWRDMA_RDMA_PORT',
      'VGWRDMA_GID_INDEX',
      'VGWRDMA_DC_KEY',
      'VGWRDMA_PROVIDER',
      'VGWRDMA_SOFTNIC_AGENT_ADDR',
      'VGWRDMA_SOFTNIC_AGENT_PORT',
      'VGWRDMA_SOFTNIC_DIRECT',
      'VGWRDMA_SOFTNIC_IO_TIMEOUT_MS',
    ]);
  });
});
