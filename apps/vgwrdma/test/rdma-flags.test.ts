// The --rdma-* flags: off unless --rdma-ip (or VGW_RDMA_IP) is given; vgwrdma's defaults (with a
// 64 MiB buffer instead of 1 GiB); flag > env > default; errors that name the flag.

import type { Env } from '@vgwrdma/cli-options';
import { BYTE_SIZE_FORMS } from '@vgwrdma/cli-options';
import { defaultPoolBufCount } from '@vgwrdma/cu-backend';
import { describe, expect, it } from 'vitest';
import { globalUsage } from '../src/usage.js';
import { ROOT_ENV, serveConfig, usageError as usageErrorOf } from './helpers/command-line.js';
import { RDMA_DEFAULTS } from './helpers/config-defaults.js';

/** With the root keys, and whatever else the test adds to the environment. */
const serve = (argv: string[], env: Env = {}) => serveConfig(argv, { ...ROOT_ENV, ...env });
const usageError = (argv: string[], env: Env = {}) => usageErrorOf(argv, { ...ROOT_ENV, ...env });

describe('--rdma-* flags', () => {
  it('leave RDMA off without --rdma-ip', () => {
    expect(serve(['posix', 'data']).rdma).toBeUndefined();
    expect(serve(['--pool-buf-count', '9', 'posix', 'data']).rdma).toBeUndefined();
  });

  it('turn RDMA on with --rdma-ip, with the documented defaults', () => {
    expect(serve(['--rdma-ip', '127.0.0.1', 'posix', 'data']).rdma).toEqual({
      ip: '127.0.0.1',
      poolBufSize: 64 * 1024 * 1024,
      poolBufCount: defaultPoolBufCount(),
      ...RDMA_DEFAULTS,
    });
  });

  it('default to one pool buffer per core, 4 to 16 (a part in flight per core that can hash it)', () => {
    expect([1, 2, 4, 6, 16, 64].map((cores) => defaultPoolBufCount(cores))).toEqual([4, 4, 4, 6, 16, 16]);
  });

  it('read every flag, and the VGW_* environment variables when a flag is absent', () => {
    const fromFlags = serve([
      '--rdma-ip',
      '10.0.0.5',
      '--rdma-port',
      '19200',
      '--rdma-transport',
      'cuobj',
      '--pool-buf-size',
      '1GiB',
      '--pool-buf-count',
      '2',
      '--rdma-dc-key',
      '12345',
      '--rdma-num-dcis',
      '16',
      '--rdma-cq-depth',
      '128',
      '--rdma-retry-count',
      '0',
      '--rdma-pool-wait-ms',
      '250',
      '--rdma-get-lanes',
      '1',
      '--rdma-put-lanes',
      '1',
      '--rdma-direct-privileged',
      '--rdma-allow-agents',
      '10.1.0.0/16, 192.168.7.9',
      '--rdma-transfer-timeout',
      '5000',
      '--rdma-max-per-agent',
      '3',
      '--debug',
      'posix',
      'data',
    ]).rdma;
    expect(fromFlags).toEqual({
      ip: '10.0.0.5',
      port: 19200,
      transport: 'cuobj',
      poolBufSize: 1024 ** 3,
      poolBufCount: 2,
      dcKey: 12345n,
      numDcis: 16,
      cqDepth: 128,
      retryCount: 0,
      poolWaitMs: 250,
      getLanes: 1,
      putLanes: 1,
      directPrivileged: true,
      allowAgents: ['10.1.0.0/16', '192.168.7.9'],
      transferTimeoutMs: 5000,
      maxPerAgent: 3,
      vendorDebug: true, // --debug turns on the cuobj library's debug telemetry
    });
    const fromEnv = serve(['posix', 'data'], {
      VGW_RDMA_IP: '127.0.0.1',
      VGW_RDMA_PORT: '19101',
      VGW_POOL_BUF_SIZE: '8388608',
      VGW_POOL_BUF_COUNT: '3',
      VGW_RDMA_DC_KEY: '0xabc',
      VGW_RDMA_NUM_DCIS: '4',
      VGW_RDMA_CQ_DEPTH: '64',
      VGW_RDMA_RETRY_COUNT: '5',
      VGW_RDMA_DIRECT_PRIVILEGED: 'true',
      VGW_RDMA_ALLOW_AGENTS: '10.0.0.0/8',
      VGW_RDMA_TRANSFER_TIMEOUT: '1000',
      VGW_RDMA_MAX_PER_AGENT: '1',
    }).rdma;
    expect(fromEnv).toMatchObject({
      ip: '127.0.0.1',
      port: 19101,
      poolBufSize: 8 * 1024 * 1024,
      poolBufCount: 3,
      dcKey: 0xabcn,
      numDcis: 4,
      cqDepth: 64,
      retryCount: 5,
      directPrivileged: true,
      allowAgents: ['10.0.0.0/8'],
      transferTimeoutMs: 1000,
      maxPerAgent: 1,
    });
    expect(
      serve(['--pool-buf-count', '7', 'posix', 'data'], { VGW_RDMA_IP: '127.0.0.1', VGW_POOL_BUF_COUNT: '3' })
        .rdma?.poolBufCount,
    ).toBe(7);
  });

  it('refuse bad values, naming the flag (and the variable)', () => {
    expect(usageError(['--rdma-ip', 'localhost', 'posix', 'data'])).toMatch(/--rdma-ip/);
    expect(usageError(['--rdma-ip', '127.0.0.1', '--rdma-retry-count', '8', 'posix', 'data'])).toMatch(
      /--rdma-retry-count/,
    );
    expect(usageError(['--rdma-ip', '127.0.0.1', '--rdma-transport', 'verbs', 'posix', 'data'])).toMatch(
      /--rdma-transport/,
    );
    expect(usageError(['--rdma-ip', '127.0.0.1', '--pool-buf-size', '64XB', 'posix', 'data'])).toMatch(
      /--pool-buf-size/,
    );
    expect(usageError(['--rdma-ip', '127.0.0.1', '--pool-buf-count', '0', 'posix', 'data'])).toMatch(
      /--pool-buf-count/,
    );
    for (const cidr of ['10.0.0.0/33', 'example.org', '10.0.0/8', '::1/128'])
      expect(usageError(['--rdma-ip', '127.0.0.1', '--rdma-allow-agents', cidr, 'posix', 'data'])).toMatch(
        /--rdma-allow-agents/,
      );
    expect(usageError(['--rdma-ip', '127.0.0.1', '--rdma-max-per-agent', '0', 'posix', 'data'])).toMatch(
      /--rdma-max-per-agent/,
    );
    expect(usageError(['--rdma-ip', '127.0.0.1', '--rdma-transfer-timeout', '0', 'posix', 'data'])).toMatch(
      /--rdma-transfer-timeout/,
    );
    expect(
      usageError(['--rdma-ip', '127.0.0.1', '--rdma-dc-key', '0x1ffffffffffffffff', 'posix', 'data']),
    ).toMatch(/--rdma-dc-key/);
    expect(usageError(['posix', 'data'], { VGW_RDMA_IP: '127.0.0.1', VGW_RDMA_NUM_DCIS: 'many' })).toMatch(
      /--rdma-num-dcis from VGW_RDMA_NUM_DCIS/,
    );
  });

  it('--pool-buf-size takes the one byte-size rule: K/M/G/T and KiB… binary, KB/MB/GB/TB decimal', () => {
    const size = (value: string) =>
      serve(['--rdma-ip', '127.0.0.1', '--pool-buf-size', value, 'posix', 'data']).rdma?.poolBufSize;
    expect(size('64MB')).toBe(64_000_000);
    expect(size('64MiB')).toBe(64 * 2 ** 20);
    expect(size('64m')).toBe(64 * 2 ** 20);
    expect(size('4096')).toBe(4096);
    expect(size('1.5GiB')).toBe(1.5 * 2 ** 30);
    expect(
      serve(['posix', 'data'], { VGW_RDMA_IP: '127.0.0.1', VGW_POOL_BUF_SIZE: '2GB' }).rdma?.poolBufSize,
    ).toBe(2e9);
  });

  it('--pool-buf-size refuses junk and tiny buffers, naming the flag and the accepted forms', () => {
    expect(usageError(['--rdma-ip', '127.0.0.1', '--pool-buf-size', '64XB', 'posix', 'data'])).toBe(
      `invalid --pool-buf-size "64XB":\n  ✖ invalid size '64XB': expected ${BYTE_SIZE_FORMS}`,
    );
    expect(usageError(['--rdma-ip', '127.0.0.1', '--pool-buf-size', '1KiB', 'posix', 'data'])).toBe(
      `invalid --pool-buf-size "1KiB":\n  ✖ invalid size '1KiB': must be at least 4096 bytes (4KiB)`,
    );
    expect(usageError(['posix', 'data'], { VGW_RDMA_IP: '127.0.0.1', VGW_POOL_BUF_SIZE: 'lots' })).toMatch(
      /^invalid --pool-buf-size from VGW_POOL_BUF_SIZE "lots":\n {2}✖ invalid size 'lots': expected bytes/,
    );
  });

  it('--help lists them and says why the buffer default is 64 MiB', () => {
    const help = globalUsage();
    for (const flag of [
      '--rdma-ip',
      '--rdma-port',
      '--pool-buf-size',
      '--pool-buf-count',
      '--rdma-dc-key',
      '--rdma-num-dcis',
      '--rdma-cq-depth',
      '--rdma-retry-count',
      '--rdma-transport',
      '--rdma-pool-wait-ms',
      '--rdma-get-lanes',
      '--rdma-put-lanes',
      '--rdma-direct-privileged',
    ]) {
      expect(help).toContain(flag);
    }
    expect(help).toMatch(/old default of 1 GiB pins count × 1 GiB of memory, too much on small machines/);
    expect(help).toMatch(/default 64MiB/);
    expect(help.replace(/\s+/g, ' ')).toContain(BYTE_SIZE_FORMS);
  });
});
