// --bucket-cache-ttl: seconds (fractions allowed) to milliseconds, 5 s by default, from the flag or
// VGW_BUCKET_CACHE_TTL (the flag wins); 0, negative, non-numbers and more than an hour are refused
// with a message naming the flag.

import { UsageError } from '@vgwrdma/errors';
import { describe, expect, it } from 'vitest';
import { parseCommandLine } from '../src/config.js';

const creds = { ROOT_ACCESS_KEY_ID: 'ak', ROOT_SECRET_ACCESS_KEY: 'sk' };

function ttl(argv: string[], env: Record<string, string> = {}) {
  const command = parseCommandLine([...argv, 'posix', 'data'], { ...creds, ...env }, '/cwd');
  if (command.kind !== 'serve') throw new Error(`expected serve, got ${command.kind}`);
  return command.config.bucketCacheTtlMs;
}

describe('--bucket-cache-ttl', () => {
  it('defaults to 5 s and reads the flag and the environment (flag wins)', () => {
    expect(ttl([])).toBe(5000);
    expect(ttl(['--bucket-cache-ttl', '0.5'])).toBe(500);
    expect(ttl([], { VGW_BUCKET_CACHE_TTL: '30' })).toBe(30_000);
    expect(ttl(['--bucket-cache-ttl', '2'], { VGW_BUCKET_CACHE_TTL: '30' })).toBe(2000);
  });

  it('refuses 0, negatives, units and more than an hour, naming the flag', () => {
    for (const value of ['0', '-1', '5s', '3601', '']) {
      expect(() => ttl(['--bucket-cache-ttl', value])).toThrow(UsageError);
      expect(() => ttl(['--bucket-cache-ttl', value])).toThrow('--bucket-cache-ttl');
    }
  });
});
