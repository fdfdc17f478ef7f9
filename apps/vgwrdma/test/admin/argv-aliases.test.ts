// versitygw's one-dash multi-letter aliases (-er, -ui) become `--alias` before parseArgs; other
// words (values, single-letter shorts, unknown words, everything after `--`) are left alone.

import { cliOptions } from '@vgwrdma/cli-options';
import { describe, expect, it } from 'vitest';
import { ADMIN_SCHEMA, CREATE_USER_SCHEMA } from '../../src/admin/admin-flags.js';

const ADMIN_FLAGS = cliOptions(ADMIN_SCHEMA);
const CREATE_USER_FLAGS = cliOptions(CREATE_USER_SCHEMA);

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
