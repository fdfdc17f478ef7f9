// Turns parseArgs values plus the environment into one typed object per flag table: the flag wins,
// then the first environment variable that is set, then the table's default. Every value is
// validated by the table's zod schema, and each failure is reported against the flag (and the
// environment variable it came from), never as a bare zod path.
import { VgwrdmaError } from '@vgwrdma/errors';
import { z } from 'zod';
import { envBoolean, type FlagSpec } from './flags.js';

/** A command-line problem (code VGW_ERR_USAGE): printed with the usage hint, exit code 2. */
export class UsageError extends VgwrdmaError<'VGW_ERR_USAGE'> {
  override readonly name = 'UsageError';
  readonly exitCode = 2;
  constructor(message: string) {
    super('VGW_ERR_USAGE', message);
  }
}

type FlagTable = readonly FlagSpec[];

/** The typed values of a flag table: each flag's name mapped to its schema's output. */
type FlagValues<T extends FlagTable> = {
  [F in T[number] as F['name']]: F extends { default: string | boolean }
    ? z.output<F['schema']>
    : z.output<F['schema']> | undefined;
};

export type Env = Readonly<Record<string, string | undefined>>;

/** Where a value came from, for error messages. */
function describeFlag(flag: FlagSpec): string {
  const aliases = [...(flag.short ? [`-${flag.short}`] : []), ...(flag.aliases ?? []).map((a) => `--${a}`)];
  return aliases.length > 0 ? `--${flag.name} (${aliases.join(', ')})` : `--${flag.name}`;
}

export function resolveFlags<const T extends FlagTable>(
  table: T,
  given: Readonly<Record<string, string | boolean | undefined>>,
  env: Env,
): FlagValues<T> {
  const raw: Record<string, unknown> = {};
  const sources = new Map<string, string>();
  const problems: string[] = [];

  for (const flag of table) {
    const fromFlag =
      given[flag.name] ?? flag.aliases?.map((alias) => given[alias]).find((v) => v !== undefined);
    if (fromFlag !== undefined) {
      raw[flag.name] = fromFlag;
      continue;
    }
    const envName = flag.env.find((name) => env[name] !== undefined);
    const envValue = envName === undefined ? undefined : env[envName];
    if (envName !== undefined && envValue !== undefined) {
      sources.set(flag.name, envName);
      if (flag.type === 'boolean') {
        const parsed = envBoolean.safeParse(envValue.trim().toLowerCase());
        if (!parsed.success) {
          problems.push(`${describeFlag(flag)} from ${envName}="${envValue}": expected true or false`);
          continue;
        }
        raw[flag.name] = parsed.data;
      } else {
        raw[flag.name] = envValue;
      }
      continue;
    }
    if (flag.default !== undefined) raw[flag.name] = flag.default;
  }

  const shape: Record<string, z.ZodType> = {};
  for (const flag of table) {
    shape[flag.name] = flag.default === undefined ? flag.schema.optional() : flag.schema;
  }
  const result = z.object(shape).safeParse(raw);
  if (!result.success) {
    for (const flag of table) {
      const issues = result.error.issues
        .filter((issue) => issue.path[0] === flag.name)
        .map((issue) => ({ ...issue, path: issue.path.slice(1) }));
      if (issues.length === 0) continue;
      const source = sources.get(flag.name);
      const where = source === undefined ? '' : ` from ${source}`;
      const pretty = z.prettifyError({ issues }).replace(/\n/g, '\n  ');
      problems.push(`invalid ${describeFlag(flag)}${where} "${String(raw[flag.name])}":\n  ${pretty}`);
    }
  }
  if (problems.length > 0) throw new UsageError(problems.join('\n'));
  // The object schema was built from this very table, so its output has the table's shape.
  return (result.data ?? {}) as FlagValues<T>;
}
