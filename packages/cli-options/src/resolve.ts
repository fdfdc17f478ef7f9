// Raw flag values plus the environment → one typed, validated object. The flag wins, then the
// first environment variable that is set, then the option's default. The package's own schema
// validates the whole object once, and each failure is reported against the flag (and the
// environment variable it came from), never as a bare zod path.
import { UsageError } from '@vgwrdma/errors';
import { z } from 'zod';
import { parseBooleanText } from './fields.js';
import { helpLines } from './help.js';
import { type CliOption, cliOptions } from './option.js';

export type Env = Readonly<Record<string, string | undefined>>;
export type GivenValues = Readonly<Record<string, string | boolean | undefined>>;

/** `--name (-n, --alias)`: how a flag is named in messages. */
export function describeFlag(o: CliOption): string {
  const aliases = [...(o.short ? [`-${o.short}`] : []), ...o.aliases.map((a) => `--${a}`)];
  return aliases.length > 0 ? `--${o.name} (${aliases.join(', ')})` : `--${o.name}`;
}

/** The options of `schema` from `given` (parseArgs values, by flag name) and `env`; throws UsageError. */
export function resolveOptions<S extends z.ZodObject>(schema: S, given: GivenValues, env: Env): z.output<S> {
  return resolveEach([schema], given, env)[0];
}

type Outputs<S extends readonly z.ZodObject[]> = { -readonly [K in keyof S]: z.output<S[K]> };

/**
 * Several schemas read from the same flags (one command level), e.g. the gateway's options and the
 * RDMA plugin's: every problem of every schema is reported in one UsageError.
 */
export function resolveEach<const S extends readonly z.ZodObject[]>(
  schemas: S,
  given: GivenValues,
  env: Env,
): Outputs<S> {
  const problems: string[] = [];
  const outputs = schemas.map((schema) => collect(schema, given, env, problems));
  if (problems.length > 0) throw new UsageError(problems.join('\n'));
  return outputs as Outputs<S>;
}

function collect(schema: z.ZodObject, given: GivenValues, env: Env, problems: string[]): unknown {
  const options = cliOptions(schema);
  const raw: Record<string, unknown> = {};
  const sources = new Map<string, string>();
  /** Keys whose raw value was already refused (a bad boolean spelling): not reported twice. */
  const refused = new Set<string>();

  for (const o of options) {
    const fromFlag = given[o.name] ?? o.aliases.map((alias) => given[alias]).find((v) => v !== undefined);
    if (fromFlag !== undefined) {
      raw[o.key] = fromFlag;
      continue;
    }
    const envName = o.env.find((name) => env[name] !== undefined);
    const envValue = envName === undefined ? undefined : env[envName];
    if (envName !== undefined && envValue !== undefined) {
      sources.set(o.key, envName);
      if (o.type === 'boolean') {
        const parsed = parseBooleanText(envValue);
        if (parsed === undefined) {
          problems.push(`${describeFlag(o)} from ${envName}="${envValue}": expected true or false`);
          refused.add(o.key);
          continue;
        }
        raw[o.key] = parsed;
      } else {
        raw[o.key] = envValue;
      }
      continue;
    }
    const fallback = o.default ?? o.fallback?.();
    if (fallback !== undefined) raw[o.key] = fallback;
  }

  const result = schema.safeParse(raw);
  if (!result.success) {
    const known = new Set(options.map((o) => o.key));
    for (const o of options) {
      const issues = result.error.issues
        .filter((issue) => issue.path[0] === o.key)
        .map((issue) => ({ ...issue, path: [] })); // the flag names the place
      if (issues.length === 0 || refused.has(o.key)) continue;
      const source = sources.get(o.key);
      const where = source === undefined ? '' : ` from ${source}`;
      const pretty = z.prettifyError({ issues }).replace(/\n/g, '\n  ');
      problems.push(`invalid ${describeFlag(o)}${where} "${String(raw[o.key])}":\n  ${pretty}`);
    }
    // Rules over several fields (the schema's own refinements) speak for themselves.
    for (const issue of result.error.issues) {
      if (!known.has(String(issue.path[0]))) problems.push(issue.message);
    }
  }
  return result.data;
}

/** One command level declared at once: its schema, its flags in order, and resolve/help bound to them. */
export function optionLevel<T extends z.ZodRawShape>(shape: T) {
  const schema = z.object(shape);
  const flags = cliOptions(schema);
  return {
    schema,
    flags,
    resolve: (given: GivenValues, env: Env): z.output<typeof schema> => resolveOptions(schema, given, env),
    help: (): string => helpLines(flags),
  };
}
