// --bucket-cache-ttl: seconds (fractions allowed) to milliseconds, 5 s by default, from the flag or
// VGW_BUCKET_CACHE_TTL (the flag wins); 0, negative, non-numbers and more than an hour are refused
// with a message naming the flag.

import { describe, expect, it } from 'vitest';
import { type FlagRow, flagReader } from './helpers/flag-reader.js';

const ttl = flagReader((config) => config.bucketCacheTtlMs);
const FLAG = '--bucket-cache-ttl';

const READS: FlagRow<number>[] = [
  { argv: [], want: 5000 },
  { argv: [FLAG, '0.5'], want: 500 },
  { argv: [], env: { VGW_BUCKET_CACHE_TTL: '30' }, want: 30_000 },
  { argv: [FLAG, '2'], env: { VGW_BUCKET_CACHE_TTL: '30' }, want: 2000 },
];

describe('--bucket-cache-ttl', () => {
  it.each(READS)('defaults to 5 s and reads the flag and the environment (flag wins): $argv $env', (row) => {
    expect(ttl.read(row.argv, row.env)).toBe(row.want);
  });

  it.each(['0', '-1', '5s', '3601', ''])(
    'refuses %j (0, negatives, units, more than an hour), naming the flag',
    (value) => {
      expect(ttl.refusal([FLAG, value])).toContain(FLAG);
    },
  );
});
