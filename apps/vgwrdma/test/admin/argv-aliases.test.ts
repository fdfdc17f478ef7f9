// versitygw's one-dash multi-letter aliases (-er, -ui) become `--alias` before parseArgs; other
// words (values, single-letter shorts, unknown words, everything after `--`) are left alone.
import { describe, expect, it } from 'vitest';
import { ADMIN_FLAGS, CREATE_USER_FLAGS } from '../../src/admin/admin-flags.js';
import { longFormAliases } from '../../src/admin/argv-aliases.js';

describe('longFormAliases', () => {
  it('rewrites known multi-letter aliases only', () => {
    expect(longFormAliases(['-a', 'k', '-er', 'http://h', '-er=http://i', '-xy', 'v'], ADMIN_FLAGS)).toEqual([
      '-a',
      'k',
      '--er',
      'http://h',
      '--er=http://i',
      '-xy',
      'v',
    ]);
    expect(longFormAliases(['-ui', '7', '-gi', '8', '--', '-ui'], CREATE_USER_FLAGS)).toEqual([
      '--ui',
      '7',
      '--gi',
      '8',
      '--',
      '-ui',
    ]);
  });
});
