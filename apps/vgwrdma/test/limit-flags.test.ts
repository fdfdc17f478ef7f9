// The listener limits: versitygw's names, aliases, environment variables and defaults for
// --max-connections / --max-requests, and --body-idle-timeout in (fractional) seconds.

import { describe, expect, it } from 'vitest';
import { type FlagRow, flagReader } from './helpers/flag-reader.js';

const limits = flagReader((config) => config.limits);
type Limits = ReturnType<typeof limits.read>;

const ENV = { VGW_MAX_CONNECTIONS: '7', VGW_MAX_REQUESTS: '6', VGW_BODY_IDLE_TIMEOUT: '20' };

/** Whole settings: the defaults, flags, the environment, and 0 as no limit. */
const READS: (FlagRow<Limits> & { readonly what: string })[] = [
  {
    what: "defaults to versitygw's caps and a 60 s body idle timeout",
    argv: [],
    want: {
      maxConnections: 250_000,
      maxRequests: 100_000,
      bodyIdleTimeoutMs: 60_000,
      shutdownTimeoutMs: 30_000,
    },
  },
  {
    what: 'reads the flags',
    argv: ['--max-connections', '10', '--max-requests', '5', '--body-idle-timeout', '0.5'],
    want: { maxConnections: 10, maxRequests: 5, bodyIdleTimeoutMs: 500, shutdownTimeoutMs: 30_000 },
  },
  {
    what: 'reads the environment',
    argv: [],
    env: ENV,
    want: { maxConnections: 7, maxRequests: 6, bodyIdleTimeoutMs: 20_000, shutdownTimeoutMs: 30_000 },
  },
  {
    what: 'takes 0 as no limit',
    argv: ['--mc', '0', '--mr', '0', '--body-idle-timeout', '0'],
    want: { maxConnections: 0, maxRequests: 0, bodyIdleTimeoutMs: 0, shutdownTimeoutMs: 30_000 },
  },
];

const REFUSED = [
  ['--max-connections', '-1'],
  ['--max-requests', 'many'],
  ['--body-idle-timeout', '1m'],
  ['--body-idle-timeout', '90000'],
  ['--shutdown-timeout', '0'],
  ['--shutdown-timeout', '30s'],
] as const;

describe('listener limits', () => {
  it.each(READS)('$what', (row) => {
    expect(limits.read(row.argv, row.env)).toEqual(row.want);
  });

  it('reads the versitygw aliases, the shutdown timeout, and the flag over the environment', () => {
    expect(limits.read(['--mc', '3', '--mr', '2'])).toMatchObject({ maxConnections: 3, maxRequests: 2 });
    expect(limits.read(['--shutdown-timeout', '2.5']).shutdownTimeoutMs).toBe(2500);
    expect(limits.read([], { VGW_SHUTDOWN_TIMEOUT: '45' }).shutdownTimeoutMs).toBe(45_000);
    expect(limits.read(['--max-requests', '9'], ENV).maxRequests).toBe(9);
  });

  it.each(REFUSED)('refuses %s %j (not a count or seconds), naming the flag', (flag, value) => {
    expect(limits.refusal([flag, value])).toContain(flag);
  });
});
