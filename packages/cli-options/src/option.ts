// Command-line metadata on schema fields. A package exports its options once, as a zod object;
// each field that is also a command-line flag carries its flag name, environment variables,
// default and help text here (a zod registry, so the metadata travels with the schema and never
// with the values). Everything a command line needs (parser, env fallback, --help) is derived.
import { z } from 'zod';

export interface OptionMeta {
  /** Long flag name without dashes; default: the field's key. */
  readonly flag?: string;
  readonly short?: string;
  /** Further long names (versitygw's multi-letter aliases, e.g. --noacl), given as `--alias`. */
  readonly aliases?: readonly string[];
  /** Environment variables read, in order, when the flag is not given. */
  readonly env?: readonly string[];
  /** The command-line default, as an operator would type it (shown in --help). */
  readonly default?: string | boolean;
  /** A default computed at parse time (e.g. from the core count), not shown in --help. */
  readonly fallback?: () => string;
  /** Placeholder shown in --help for valued flags. */
  readonly arg?: string;
  readonly help: string;
}

/** The registry holding every option field's metadata. */
export const cliRegistry = z.registry<OptionMeta>();

/**
 * `schema` as a command-line option. The schema is cloned first, so one shared field schema
 * (say `nonEmpty`) can back many flags, each with its own metadata.
 */
export function option<S extends z.ZodType>(schema: S, meta: OptionMeta): S {
  const field = schema.clone() as S;
  cliRegistry.add(field, meta);
  return field;
}

/** One flag, as derived from a schema field. */
export interface CliOption {
  /** The field's key in the schema (and in the parsed object). */
  readonly key: string;
  /** Long flag name. */
  readonly name: string;
  readonly short?: string;
  readonly aliases: readonly string[];
  readonly type: 'string' | 'boolean';
  readonly env: readonly string[];
  readonly default?: string | boolean;
  readonly fallback?: () => string;
  readonly arg?: string;
  readonly help: string;
  readonly schema: z.ZodType;
}

/** The metadata of `field`, looking through `.optional()`, `.default()` and `.readonly()`. */
function metaOf(field: z.ZodType): { meta: OptionMeta; inner: z.ZodType } | undefined {
  let current: z.ZodType | undefined = field;
  while (current !== undefined) {
    const meta = cliRegistry.get(current);
    if (meta !== undefined) return { meta, inner: current };
    current =
      current instanceof z.ZodOptional || current instanceof z.ZodDefault || current instanceof z.ZodReadonly
        ? (current.unwrap() as z.ZodType)
        : undefined;
  }
  return undefined;
}

/** The command-line options of an object schema, in field order (fields without metadata are not flags). */
export function cliOptions(schema: z.ZodObject): CliOption[] {
  const options: CliOption[] = [];
  for (const [key, field] of Object.entries(schema.shape as Record<string, z.ZodType>)) {
    const found = metaOf(field);
    if (found === undefined) continue;
    const { meta, inner } = found;
    options.push({
      key,
      name: meta.flag ?? key,
      ...(meta.short === undefined ? {} : { short: meta.short }),
      aliases: meta.aliases ?? [],
      type: inner instanceof z.ZodBoolean ? 'boolean' : 'string',
      env: meta.env ?? [],
      ...(meta.default === undefined ? {} : { default: meta.default }),
      ...(meta.fallback === undefined ? {} : { fallback: meta.fallback }),
      ...(meta.arg === undefined ? {} : { arg: meta.arg }),
      help: meta.help,
      schema: field,
    });
  }
  return options;
}

/** -h / --help, the same in every command's schema: spread it into the object. */
export const HELP_OPTION = {
  help: option(z.boolean(), { short: 'h', default: false, help: 'show this help' }),
};
