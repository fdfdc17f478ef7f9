// `npx @vgwrdma/native build`'s refusals are catalogue members (docs/errors.md): a bad command line
// is VGW_ERR_NATIVE_BUILD_USAGE with exit status 2 (0 for --help), and a good one parses.
import { isVgwrdmaError } from '@vgwrdma/errors';
import { describe, expect, it } from 'vitest';
import { BuildCommandError, parseBuildArgs } from '../src/build-from-source.js';

function refusal(argv: string[]): BuildCommandError {
  try {
    parseBuildArgs(argv);
  } catch (e) {
    if (e instanceof BuildCommandError) return e;
    throw e;
  }
  throw new Error(`accepted ${argv.join(' ')}`);
}

describe('the build command line', () => {
  it('refuses a bad --jobs and an unknown flag with VGW_ERR_NATIVE_BUILD_USAGE, exit status 2', () => {
    for (const argv of [['--jobs', 'many'], ['--nope']]) {
      const e = refusal(argv);
      expect([e.name, e.code, e.exitCode, isVgwrdmaError(e)]).toEqual([
        'BuildCommandError',
        'VGW_ERR_NATIVE_BUILD_USAGE',
        2,
        true,
      ]);
    }
  });

  it('answers --help with the usage (exit status 0) and parses --out and --jobs', () => {
    expect([refusal(['--help']).exitCode, refusal(['--help']).message]).toEqual([
      0,
      expect.stringContaining('Usage:'),
    ]);
    expect(parseBuildArgs(['--out', '/tmp/x', '--jobs', '3'])).toMatchObject({ out: '/tmp/x', jobs: 3 });
  });

  it('a build failure is VGW_ERR_NATIVE_BUILD_FAILED, exit status 1', () => {
    const e = new BuildCommandError('@vgwrdma/native build: cmake not found');
    expect([e.code, e.exitCode]).toEqual(['VGW_ERR_NATIVE_BUILD_FAILED', 1]);
  });
});
