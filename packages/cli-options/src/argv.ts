// argv → raw values: node:util's parseArgs, configured from the options, with its errors turned
// into UsageErrors that name the flag (and without its advice about `--` positionals).
import { parseArgs } from 'node:util';
import { UsageError } from '@vgwrdma/errors';
import type { CliOption } from './option.js';

export type ParserOptions = Record<string, { type: 'string' | 'boolean'; short?: string }>;

/** parseArgs' `options` for a list of options (each alias as its own entry). */
export function parserOptions(options: readonly CliOption[]): ParserOptions {
  const out: ParserOptions = {};
  for (const o of options) {
    out[o.name] = o.short ? { type: o.type, short: o.short } : { type: o.type };
    for (const alias of o.aliases) out[alias] = { type: o.type };
  }
  return out;
}

export interface ParsedArgv {
  readonly values: Record<string, string | boolean | undefined>;
  readonly positionals: string[];
}

/** Strict parse of `args`; an unknown flag or a missing value is a UsageError. */
export function parseArgv(
  args: readonly string[],
  options: ParserOptions,
  allowPositionals: boolean,
): ParsedArgv {
  try {
    const parsed = parseArgs({ args: [...args], options, strict: true, allowPositionals });
    return { values: parsed.values, positionals: parsed.positionals };
  } catch (error) {
    throw new UsageError(describeParseArgsError(error));
  }
}

/** Node's parseArgs errors already name the option; drop its advice about `--` positionals. */
export function describeParseArgsError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown }).code;
  const unknown = /Unknown option '([^']+)'/.exec(message);
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && unknown) return `unknown flag ${unknown[1]}`;
  return message.replace(/\. To specify a positional argument.*$/s, '');
}
