// The listener limits: versitygw's names, aliases, environment variables and defaults for
// --max-connections / --max-requests, and --body-idle-timeout in (fractional) seconds.

import { UsageError } from '@vgwrdma/errors';
import { describe, expect, it } from 'vitest';
import { parseCommandLine } from '../src/config.js';

const creds = { ROOT_ACCESS_KEY_ID: 'ak', ROOT_SECRET_ACCESS_KEY: 'sk' };

function limits(argv: string[], env: Record<string, string> = {}) {
  const command = parseCommandLine([...argv, 'posix', 'data'], { ...creds, ...env }, '/cwd');
  if (command.kind !== 'serve') throw new Error(`expected serve, got ${command.kind}`);
  return command.config.limits;
}

describe('listener limits', () => {
  it("defaults to versitygw's caps and a 60 s body idle timeout", () => {
    expect(limits([])).toEqual({
      maxConnections: 250_000,
      maxRequests: 100_000,
      bodyIdleTimeoutMs: 60_000,
      shutdownTimeoutMs: 30_000,
    });
  });

  it('reads the flags, their versitygw aliases, and the environment (flag wins)', () => {
    expect(limits(['--max-connections', '10', '--max-requests', '5', '--body-idle-timeout', '0.5'])).toEqual({
      maxConnections: 10,
      maxRequests: 5,
      bodyIdleTimeoutMs: 500,
      shutdownTimeoutMs: 30_000,
    });
    expect(limits(['--mc', '3', '--mr', '2'])).toMatchObject({ maxConnections: 3, maxRequests: 2 });
    const env = { VGW_MAX_CONNECTIONS: '7', VGW_MAX_REQUESTS: '6', VGW_BODY_IDLE_TIMEOUT: '20' };
    expect(limits([], env)).toEqual({
      maxConnections: 7,
      maxRequests: 6,
      bodyIdleTimeoutMs: 20_000,
      shutdownTimeoutMs: 30_000,
    });
    expect(limits(['--shutdown-timeout', '2.5']).shutdownTimeoutMs).toBe(2500);
    expect(limits([], { VGW_SHUTDOWN_TIMEOUT: '45' }).shutdownTimeoutMs).toBe(45_000);
    expect(limits(['--max-requests', '9'], env).maxRequests).toBe(9);
  });

  it('takes 0 as no limit', () => {
    expect(limits(['--mc', '0', '--mr', '0', '--body-idle-timeout', '0'])).toEqual({
      maxConnections: 0,
      maxRequests: 0,
      bodyIdleTimeoutMs: 0,
      shutdownTimeoutMs: 30_000,
    });
  });

  it('refuses values that are not counts or seconds, naming the flag', () => {
    for (const [flag, value] of [
      ['--max-connections', '-1'],
      ['--max-requests', 'many'],
      ['--body-idle-timeout', '1m'],
      ['--body-idle-timeout', '90000'],
      ['--shutdown-timeout', '0'],
      ['--shutdown-timeout', '30s'],
    ] as const) {
      expect(() => limits([flag, value])).toThrow(UsageError);
      expect(() => limits([flag, value])).toThrow(flag);
    }
  });
});
