// --adopt-ownerless-buckets: off by default; the access key from the flag or
// VGW_ADOPT_OWNERLESS_BUCKETS (the flag wins); an empty value is refused naming the flag; listed
// in --help. What it does at start-up is ownerless-buckets.e2e.test.ts's.

import { UsageError } from '@vgwrdma/errors';
import { describe, expect, it } from 'vitest';
import { parseCommandLine } from '../src/config.js';

const creds = { ROOT_ACCESS_KEY_ID: 'ak', ROOT_SECRET_ACCESS_KEY: 'sk' };

function adopt(argv: string[], env: Record<string, string> = {}) {
  const command = parseCommandLine([...argv, 'posix', 'data'], { ...creds, ...env }, '/cwd');
  if (command.kind !== 'serve') throw new Error(`expected serve, got ${command.kind}`);
  return command.config.adoptOwnerless;
}

describe('--adopt-ownerless-buckets', () => {
  it('is off by default and reads the flag and the environment (flag wins)', () => {
    expect(adopt([])).toBeUndefined();
    expect(adopt(['--adopt-ownerless-buckets', 'alice'])).toBe('alice');
    expect(adopt([], { VGW_ADOPT_OWNERLESS_BUCKETS: 'bob' })).toBe('bob');
    expect(adopt(['--adopt-ownerless-buckets', 'alice'], { VGW_ADOPT_OWNERLESS_BUCKETS: 'bob' })).toBe(
      'alice',
    );
  });

  it('refuses an empty access key, naming the flag', () => {
    expect(() => adopt(['--adopt-ownerless-buckets', ''])).toThrow(UsageError);
    expect(() => adopt(['--adopt-ownerless-buckets', ''])).toThrow('--adopt-ownerless-buckets');
  });

  it('is listed in --help with its variable', () => {
    const help = parseCommandLine(['--help'], {}, '/cwd');
    expect(help.kind).toBe('help');
    if (help.kind !== 'help') return;
    expect(help.text).toContain('--adopt-ownerless-buckets ACCESS');
    expect(help.text).toContain('VGW_ADOPT_OWNERLESS_BUCKETS');
  });
});
