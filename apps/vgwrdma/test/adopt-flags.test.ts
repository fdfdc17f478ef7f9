// --adopt-ownerless-buckets: off by default; the access key from the flag or
// VGW_ADOPT_OWNERLESS_BUCKETS (the flag wins); an empty value is refused naming the flag; listed
// in --help. What it does at start-up is ownerless-buckets.e2e.test.ts's.

import { describe, expect, it } from 'vitest';
import { parseCommandLine } from '../src/config.js';
import { type FlagRow, flagReader } from './helpers/flag-reader.js';

const adopt = flagReader((config) => config.adoptOwnerless);
const FLAG = '--adopt-ownerless-buckets';

const READS: FlagRow<string | undefined>[] = [
  { argv: [], want: undefined },
  { argv: [FLAG, 'alice'], want: 'alice' },
  { argv: [], env: { VGW_ADOPT_OWNERLESS_BUCKETS: 'bob' }, want: 'bob' },
  { argv: [FLAG, 'alice'], env: { VGW_ADOPT_OWNERLESS_BUCKETS: 'bob' }, want: 'alice' },
];

describe('--adopt-ownerless-buckets', () => {
  it.each(READS)(
    'is off by default and reads the flag and the environment (flag wins): $argv $env',
    (row) => {
      expect(adopt.read(row.argv, row.env)).toBe(row.want);
    },
  );

  it('refuses an empty access key, naming the flag', () => {
    expect(adopt.refusal([FLAG, ''])).toContain(FLAG);
  });

  it('is listed in --help with its variable', () => {
    const help = parseCommandLine(['--help'], {}, '/cwd');
    expect(help.kind).toBe('help');
    if (help.kind !== 'help') return;
    expect(help.text).toContain('--adopt-ownerless-buckets ACCESS');
    expect(help.text).toContain('VGW_ADOPT_OWNERLESS_BUCKETS');
  });
});
