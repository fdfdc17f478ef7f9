// The command line derived from a schema: flag > environment > default > fallback, the one boolean
// spelling, the one integer rule, errors that name the flag and its source, --help from metadata.
import { UsageError } from '@vgwrdma/errors';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  byteSize,
  cliOptions,
  helpLines,
  integer,
  nonEmpty,
  option,
  parseArgv,
  parserOptions,
  resolveOptions,
} from '../src/index.js';

const schema = z.object({
  port: option(integer(1, 65535), {
    flag: 'the-port',
    short: 'p',
    env: ['A_PORT', 'B_PORT'],
    default: '80',
    arg: 'PORT',
    help: 'port',
  }),
  size: option(byteSize(4096).optional(), { flag: 'buf-size', env: ['SIZE'], arg: 'BYTES', help: 'size' }),
  count: option(integer(1, 16), { flag: 'count', fallback: () => '4', help: 'count' }),
  name: option(nonEmpty, { flag: 'name', aliases: ['nm'], help: 'name' }).optional(),
  quiet: option(z.boolean(), { flag: 'quiet', env: ['QUIET'], default: false, help: 'quiet' }),
  internal: z.string().optional(),
});

const parse = (argv: string[], env: Record<string, string> = {}) =>
  resolveOptions(schema, parseArgv(argv, parserOptions(cliOptions(schema)), false).values, env);

function usageError(run: () => unknown): UsageError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    expect(error).toMatchObject({ code: 'VGW_ERR_USAGE', exitCode: 2 });
    return error as UsageError;
  }
  throw new Error('expected a UsageError');
}

describe('cliOptions', () => {
  it('lists the fields with metadata, in order, typed by their schema', () => {
    expect(cliOptions(schema).map((o) => [o.key, o.name, o.type])).toEqual([
      ['port', 'the-port', 'string'],
      ['size', 'buf-size', 'string'],
      ['count', 'count', 'string'],
      ['name', 'name', 'string'],
      ['quiet', 'quiet', 'boolean'],
    ]);
  });

  it('keeps the metadata of one shared field schema apart per flag', () => {
    const shared = z.object({ a: option(nonEmpty, { help: 'A' }), b: option(nonEmpty, { help: 'B' }) });
    expect(cliOptions(shared).map((o) => o.help)).toEqual(['A', 'B']);
  });
});

describe('resolveOptions', () => {
  it('takes defaults and fallbacks, leaving absent optional fields absent', () => {
    expect(parse([])).toEqual({ port: 80, count: 4, quiet: false });
  });

  it('lets the flag win over the environment, and the first variable set over the next', () => {
    expect(parse(['-p', '81'], { A_PORT: '82' }).port).toBe(81);
    expect(parse(['--the-port=83'], { A_PORT: '82' }).port).toBe(83);
    expect(parse([], { B_PORT: '84', A_PORT: '85' }).port).toBe(85);
    expect(parse([], { B_PORT: '84' }).port).toBe(84);
    expect(parse(['--nm', 'x']).name).toBe('x');
    expect(parse(['--buf-size', '64MiB']).size).toBe(64 * 2 ** 20);
  });

  it('reads booleans from the environment by one spelling', () => {
    for (const yes of ['1', 't', 'TRUE', 'yes', 'y', ' on '])
      expect(parse([], { QUIET: yes }).quiet).toBe(true);
    for (const no of ['0', 'f', 'false', 'no', 'n', 'off', ''])
      expect(parse([], { QUIET: no }).quiet).toBe(false);
    expect(usageError(() => parse([], { QUIET: 'maybe' })).message).toBe(
      '--quiet from QUIET="maybe": expected true or false',
    );
  });

  it('names the flag, its aliases and the variable a bad value came from', () => {
    expect(usageError(() => parse(['-p', '0'])).message).toBe(
      'invalid --the-port (-p) "0":\n  ✖ must be 1..65535',
    );
    expect(usageError(() => parse([], { A_PORT: '1e3' })).message).toBe(
      'invalid --the-port (-p) from A_PORT "1e3":\n  ✖ must be a decimal integer',
    );
    expect(usageError(() => parse(['--buf-size', '1K'])).message).toContain(
      "invalid size '1K': must be at least 4096",
    );
    expect(usageError(() => parse(['--nope'])).message).toBe('unknown flag --nope');
  });

  it('validates once for programs too: numbers are held to the same rule', () => {
    expect(schema.parse({ port: 8080, count: 2, quiet: true, size: 8192 })).toEqual({
      port: 8080,
      count: 2,
      quiet: true,
      size: 8192,
    });
    expect(schema.safeParse({ port: 1.5, count: 2, quiet: true }).success).toBe(false);
    expect(schema.safeParse({ port: 80, count: 2, quiet: true, size: 100 }).success).toBe(false);
  });
});

describe('helpLines', () => {
  it('prints names, placeholder, help, default and variables from the metadata', () => {
    const lines = helpLines(cliOptions(schema)).split('\n');
    expect(lines[0]).toMatch(/^ {2}-p, --the-port PORT +port \[default 80; env A_PORT, B_PORT\]$/);
    expect(lines[3]).toMatch(/^ {6}--name, --nm +name$/);
    expect(lines[4]).toMatch(/^ {6}--quiet +quiet \[env QUIET\]$/);
  });
});
