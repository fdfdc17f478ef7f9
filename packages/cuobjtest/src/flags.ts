// The command line, declared once as a zod schema whose fields carry their flag metadata
// (@vgwrdma/cli-options' option(): flag name, environment variable, default, help); parsing,
// defaults, environment fallbacks and --help are derived from it. vgwrdma's cuobjtest flags keep
// their names and defaults and Go's single-dash form (-size 64MiB, -size=64MiB); GNU-style --size
// is accepted for every flag too.

import {
  BYTE_SIZE_FORMS,
  ByteSizeError,
  type CliOption,
  cliOptions,
  HELP_OPTION,
  integer,
  option,
  parseBooleanText,
  parseByteSize,
} from '@vgwrdma/cli-options';
import { UsageError } from '@vgwrdma/errors';
import { TOKEN_CAPACITY } from '@vgwrdma/rdma-protocol';
import { z } from 'zod';

export { UsageError };

/** S3's smallest part (but the last). */
const MIN_PART_SIZE = 5 * 2 ** 20;

export interface Config {
  endpoint: string;
  bucket: string;
  key: string;
  size: number;
  access: string;
  secret: string;
  region: string;
  /** -ca-bundle / AWS_CA_BUNDLE: extra CA certificates (PEM) trusted for https. */
  caBundle: string | undefined;
  n: number;
  warmup: number;
  putOnly: boolean;
  getOnly: boolean;
  stdS3: boolean;
  concurrency: number;
  sizes: number[] | undefined;
  memory: 'host' | 'cuda';
  partSize: number | undefined;
  partConcurrency: number | undefined;
  compare: boolean;
  json: boolean;
  report: string | undefined;
  serverPid: number | undefined;
  help: boolean;
}

/** A whole number of at least `min` (the one integer rule); the message names the text given. */
function whole(min: 0 | 1) {
  const rule = integer(min);
  const wording = min === 1 ? 'must be a positive integer' : 'must be 0 or a positive integer';
  return z.string().transform((raw, ctx) => {
    const n = rule.safeParse(raw);
    if (n.success) return n.data;
    ctx.addIssue({ code: 'custom', message: `${wording}, got '${raw}'` });
    return z.NEVER;
  });
}

/** One size by the one byte-size rule; the refusal is ByteSizeError's sentence. */
function sizeOf(raw: string, ctx: z.RefinementCtx): number {
  try {
    return parseByteSize(raw);
  } catch (error) {
    if (!(error instanceof ByteSizeError)) throw error;
    ctx.addIssue({ code: 'custom', message: error.message });
    return Number.NaN;
  }
}
const size = z.string().transform((raw, ctx) => sizeOf(raw, ctx));
const sizeList = z.string().transform((raw, ctx) => {
  const sizes: number[] = [];
  for (const part of raw.split(',')) {
    const n = sizeOf(part, ctx);
    if (Number.isNaN(n)) return z.NEVER;
    sizes.push(n);
  }
  return sizes;
});
const memory = z.string().transform((raw, ctx) => {
  if (raw === 'host' || raw === 'cuda') return raw;
  ctx.addIssue({ code: 'custom', message: `must be host or cuda, got '${raw}'` });
  return z.NEVER;
});
const text = z.string();
const flag = z.boolean();

/** cuobjtest's options; the keys are Config's, the flags their Go names. */
export const CUOBJTEST_OPTIONS = z.object({
  endpoint: option(text, { default: 'http://localhost:7070', arg: 'URL', help: 'S3 gateway endpoint' }),
  bucket: option(text, { default: 'cuobjtest', arg: 'NAME', help: 'bucket (created if absent)' }),
  key: option(text, {
    default: 'cuobjtest-object',
    arg: 'KEY',
    help: 'object key (suffixed per worker/size when several)',
  }),
  size: option(size, { default: '64MiB', arg: 'SIZE', help: `object size: ${BYTE_SIZE_FORMS}` }),
  access: option(text, {
    env: ['AWS_ACCESS_KEY_ID'],
    // The key `npm start`'s gateway prints (ROOT_ACCESS_KEY_ID's default there).
    default: 'vgwrdma',
    arg: 'KEY',
    help: "access key (or AWS_ACCESS_KEY_ID; default vgwrdma, the key npm start's gateway prints)",
  }),
  secret: option(text, {
    env: ['AWS_SECRET_ACCESS_KEY'],
    arg: 'SECRET',
    help: 'secret key (or AWS_SECRET_ACCESS_KEY; required): prefer the variable, a flag shows in process listings',
  }).optional(),
  region: option(text, { env: ['AWS_REGION'], default: 'us-east-1', arg: 'REGION', help: 'SigV4 region' }),
  caBundle: option(text, {
    flag: 'ca-bundle',
    env: ['AWS_CA_BUNDLE'],
    arg: 'FILE',
    help: 'also trust the CA certificates (PEM) in FILE for an https:// endpoint (a private CA; or AWS_CA_BUNDLE)',
  }).optional(),
  n: option(whole(1), { default: '3', arg: 'N', help: 'iterations' }),
  warmup: option(whole(0), {
    default: '0',
    arg: 'N',
    help: 'untimed iterations first (JIT, connections, page cache), in each direction',
  }),
  putOnly: option(flag, {
    flag: 'put-only',
    default: false,
    help: 'only PUT (each object is verified afterwards by an untimed HTTP GET)',
  }),
  getOnly: option(flag, {
    flag: 'get-only',
    default: false,
    help: 'only GET an existing object (checked against an untimed HTTP GET)',
  }),
  stdS3: option(flag, {
    flag: 'std-s3',
    default: false,
    help: 'plain S3: data in the HTTP body, for comparison',
  }),
  concurrency: option(whole(1), { default: '1', arg: 'N', help: 'N sessions transferring in parallel' }),
  sizes: option(sizeList, {
    arg: 'LIST',
    help: 'size sweep, sizes as for -size separated by commas, e.g. 1MiB,16MiB,256MiB (overrides -size)',
  }).optional(),
  memory: option(memory, {
    env: ['CUOBJTEST_MEMORY'],
    default: 'host',
    arg: 'KIND',
    help: 'RDMA session memory: host, or cuda (GPU memory; staged through pinned host memory over softnic)',
  }),
  partSize: option(size, {
    flag: 'part-size',
    arg: 'SIZE',
    help: "managed transfer: multipart upload and ranged GETs in parts of SIZE (at least 5 MiB; default the SDK's, 64 MiB, when only -part-concurrency is given or -size is above one session's cap, 4 GiB - 64 KiB)",
  }).optional(),
  partConcurrency: option(whole(1), {
    flag: 'part-concurrency',
    arg: 'N',
    help: "managed transfer: N parts in flight per object (default the SDK's: one per core, 4 to 8); std-s3 uses the same parts",
  }).optional(),
  compare: option(flag, {
    default: false,
    help: 'RDMA and std-s3 alternately in one run, with per-pair ratios',
  }),
  json: option(flag, { default: false, help: 'print one JSON document on stdout (no table, no progress)' }),
  report: option(text, {
    arg: 'FILE',
    help: 'write a plot of GB/s by size: FILE.svg or FILE.html',
  }).optional(),
  serverPid: option(whole(1), {
    flag: 'server-pid',
    arg: 'PID',
    help: 'a server process on this Linux host: also report its CPU time in each timed iteration (/proc/PID/stat)',
  }).optional(),
  help: HELP_OPTION.help,
});

/** The flags in --help order, derived from the schema. */
export const FLAGS: readonly CliOption[] = cliOptions(CUOBJTEST_OPTIONS);

// A command-line problem is the catalogue's UsageError (VGW_ERR_USAGE): exit status 2, except a
// missing secret, which exits 1 as the original cuobjtest does.

/** `raw` as the flag's value, by its schema field; a refusal names the flag. */
function convert(spec: CliOption, raw: string | boolean): unknown {
  if (spec.type === 'boolean' && typeof raw === 'string') {
    const b = parseBooleanText(raw);
    if (b === undefined) throw new UsageError(`-${spec.name}: must be true or false, got '${raw}'`);
    return b;
  }
  const parsed = spec.schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  throw new UsageError(`-${spec.name}: ${parsed.error.issues[0]?.message ?? 'invalid value'}`);
}

/** Parses argv (without node and script) with `env` fallbacks into a Config. Throws UsageError. */
export function parseFlags(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>> = {},
): Config {
  const values = new Map<string, unknown>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const m = /^--?([a-z][a-z0-9-]*)(?:=(.*))?$/s.exec(arg);
    if (!m) throw new UsageError(`unexpected argument '${arg}'`);
    const spec = FLAGS.find((f) => f.name === m[1]);
    if (!spec) throw new UsageError(`unknown flag '${arg}'`);
    let raw: string | boolean | undefined = m[2];
    if (raw === undefined && spec.type !== 'boolean') {
      raw = argv[++i];
      if (raw === undefined) throw new UsageError(`-${spec.name} needs a value`);
    }
    values.set(spec.key, convert(spec, raw ?? true));
  }
  const config: Record<string, unknown> = {};
  for (const spec of FLAGS) {
    const name = spec.env[0];
    const fromEnv = name === undefined ? undefined : env[name];
    const fallback = fromEnv !== undefined && fromEnv !== '' ? fromEnv : spec.default;
    config[spec.key] = values.has(spec.key)
      ? values.get(spec.key)
      : fallback === undefined
        ? undefined
        : convert(spec, fallback);
  }
  const c = config as unknown as Config;
  if (!c.help && (c.secret === undefined || c.secret === ''))
    throw new UsageError('-secret or AWS_SECRET_ACCESS_KEY is required', 1);
  if (c.putOnly && c.getOnly) throw new UsageError('-put-only and -get-only exclude each other');
  if (c.compare && c.stdS3) throw new UsageError('-compare already runs std-s3; drop -std-s3');
  if (c.partSize !== undefined && c.partSize < MIN_PART_SIZE)
    throw new UsageError(`-part-size: at least 5 MiB (S3's smallest part), got ${c.partSize}`);
  if (c.partSize !== undefined && c.partSize > TOKEN_CAPACITY)
    throw new UsageError(`-part-size: at most ${TOKEN_CAPACITY} (one RDMA token), got ${c.partSize}`);
  if (c.memory === 'cuda' && c.stdS3)
    throw new UsageError('-memory cuda is for RDMA transfers; drop -std-s3');
  return c;
}

/** The --help text, from the schema. */
export function usage(): string {
  const rows = FLAGS.map((f) => {
    const left = `  -${f.name}${f.arg ? ` ${f.arg}` : ''}`;
    const def = f.default === undefined || f.default === false ? '' : ` (default ${String(f.default)})`;
    return `${left.padEnd(24)} ${f.help}${def}`;
  });
  return `cuobjtest - measure and verify S3 PUT/GET by RDMA (softnic or RDMA NIC) against plain HTTP bodies

Usage:
  cuobjtest [flags]          (flags take one dash or two: -size 64MiB, --size=64MiB)

Flags:
${rows.join('\n')}

RDMA transport settings come from the environment (VGWRDMA_SOFTNIC_*, VGWRDMA_RDMA_DEV, ...; see
the @vgwrdma/cuobjclient README). Exit status: 0 when every transfer was verified, 1 when one
was not, a transfer failed or no secret was given, 2 on another usage error.
`;
}
