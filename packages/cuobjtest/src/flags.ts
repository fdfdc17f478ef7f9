// The command line. One table row per flag drives parsing, defaults, environment fallbacks and
// --help. vgwrdma's cuobjtest flags keep their names and defaults and Go's single-dash form
// (-size 64MiB, -size=64MiB); GNU-style --size is accepted for every flag too.

import {
  BYTE_SIZE_FORMS,
  ByteSizeError,
  formatByteSize,
  integer,
  parseBooleanText,
  parseByteSize,
} from '@vgwrdma/cli-options';
import { UsageError } from '@vgwrdma/errors';
import { TOKEN_CAPACITY } from '@vgwrdma/rdma-protocol';

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

type Value = string | number | boolean | number[];

interface FlagSpec {
  readonly name: string;
  readonly field: keyof Config;
  readonly kind: 'string' | 'size' | 'count' | 'whole' | 'sizes' | 'boolean';
  readonly env?: string;
  readonly default?: Value;
  readonly arg?: string;
  readonly help: string;
}

export const FLAGS: readonly FlagSpec[] = [
  {
    name: 'endpoint',
    field: 'endpoint',
    kind: 'string',
    default: 'http://localhost:7070',
    arg: 'URL',
    help: 'S3 gateway endpoint',
  },
  {
    name: 'bucket',
    field: 'bucket',
    kind: 'string',
    default: 'cuobjtest',
    arg: 'NAME',
    help: 'bucket (created if absent)',
  },
  {
    name: 'key',
    field: 'key',
    kind: 'string',
    default: 'cuobjtest-object',
    arg: 'KEY',
    help: 'object key (suffixed per worker/size when several)',
  },
  {
    name: 'size',
    field: 'size',
    kind: 'size',
    default: 64 * 2 ** 20,
    arg: 'SIZE',
    help: `object size: ${BYTE_SIZE_FORMS}`,
  },
  {
    name: 'access',
    field: 'access',
    kind: 'string',
    env: 'AWS_ACCESS_KEY_ID',
    // The key `npm start`'s gateway prints (ROOT_ACCESS_KEY_ID's default there).
    default: 'vgwrdma',
    arg: 'KEY',
    help: "access key (or AWS_ACCESS_KEY_ID; default vgwrdma, the key npm start's gateway prints)",
  },
  {
    name: 'secret',
    field: 'secret',
    kind: 'string',
    env: 'AWS_SECRET_ACCESS_KEY',
    arg: 'SECRET',
    help: 'secret key (or AWS_SECRET_ACCESS_KEY; required): prefer the variable, a flag shows in process listings',
  },
  {
    name: 'region',
    field: 'region',
    kind: 'string',
    env: 'AWS_REGION',
    default: 'us-east-1',
    arg: 'REGION',
    help: 'SigV4 region',
  },
  {
    name: 'ca-bundle',
    field: 'caBundle',
    kind: 'string',
    env: 'AWS_CA_BUNDLE',
    arg: 'FILE',
    help: 'also trust the CA certificates (PEM) in FILE for an https:// endpoint (a private CA; or AWS_CA_BUNDLE)',
  },
  { name: 'n', field: 'n', kind: 'count', default: 3, arg: 'N', help: 'iterations' },
  {
    name: 'warmup',
    field: 'warmup',
    kind: 'whole',
    default: 0,
    arg: 'N',
    help: 'untimed iterations first (JIT, connections, page cache), in each direction',
  },
  {
    name: 'put-only',
    field: 'putOnly',
    kind: 'boolean',
    default: false,
    help: 'only PUT (each object is verified afterwards by an untimed HTTP GET)',
  },
  {
    name: 'get-only',
    field: 'getOnly',
    kind: 'boolean',
    default: false,
    help: 'only GET an existing object (checked against an untimed HTTP GET)',
  },
  {
    name: 'std-s3',
    field: 'stdS3',
    kind: 'boolean',
    default: false,
    help: 'plain S3: data in the HTTP body, for comparison',
  },
  {
    name: 'concurrency',
    field: 'concurrency',
    kind: 'count',
    default: 1,
    arg: 'N',
    help: 'N sessions transferring in parallel',
  },
  {
    name: 'sizes',
    field: 'sizes',
    kind: 'sizes',
    arg: 'LIST',
    help: 'size sweep, sizes as for -size separated by commas, e.g. 1MiB,16MiB,256MiB (overrides -size)',
  },
  {
    name: 'memory',
    field: 'memory',
    kind: 'string',
    env: 'CUOBJTEST_MEMORY',
    default: 'host',
    arg: 'KIND',
    help: 'RDMA session memory: host, or cuda (GPU memory; staged through pinned host memory over softnic)',
  },
  {
    name: 'part-size',
    field: 'partSize',
    kind: 'size',
    arg: 'SIZE',
    help: "managed transfer: multipart upload and ranged GETs in parts of SIZE (at least 5 MiB; default the SDK's, 64 MiB, when only -part-concurrency is given or -size is above one session's cap, 4 GiB - 64 KiB)",
  },
  {
    name: 'part-concurrency',
    field: 'partConcurrency',
    kind: 'count',
    arg: 'N',
    help: "managed transfer: N parts in flight per object (default the SDK's, 4); std-s3 uses the same parts",
  },
  {
    name: 'compare',
    field: 'compare',
    kind: 'boolean',
    default: false,
    help: 'RDMA and std-s3 alternately in one run, with per-pair ratios',
  },
  {
    name: 'json',
    field: 'json',
    kind: 'boolean',
    default: false,
    help: 'print one JSON document on stdout (no table, no progress)',
  },
  {
    name: 'report',
    field: 'report',
    kind: 'string',
    arg: 'FILE',
    help: 'write a plot of GB/s by size: FILE.svg or FILE.html',
  },
  {
    name: 'server-pid',
    field: 'serverPid',
    kind: 'count',
    arg: 'PID',
    help: 'a server process on this Linux host: also report its CPU time in each timed iteration (/proc/PID/stat)',
  },
  { name: 'help', field: 'help', kind: 'boolean', default: false, help: 'show this help' },
];

// A command-line problem is the catalogue's UsageError (VGW_ERR_USAGE): exit status 2, except a
// missing secret, which exits 1 as the original cuobjtest does.

const POSITIVE = integer(1);
const WHOLE = integer(0);

/** One size by the one byte-size rule (rdma-protocol); a refusal names the flag. */
function byteSize(spec: FlagSpec, raw: string): number {
  try {
    return parseByteSize(raw);
  } catch (error) {
    if (error instanceof ByteSizeError) throw new UsageError(`-${spec.name}: ${error.message}`);
    throw error;
  }
}

function convert(spec: FlagSpec, raw: string): Value {
  switch (spec.kind) {
    case 'string':
      return raw;
    case 'size':
      return byteSize(spec, raw);
    case 'sizes':
      return raw.split(',').map((part) => byteSize(spec, part));
    case 'count': {
      const n = POSITIVE.safeParse(raw);
      if (!n.success) throw new UsageError(`-${spec.name}: must be a positive integer, got '${raw}'`);
      return n.data;
    }
    case 'whole': {
      const n = WHOLE.safeParse(raw);
      if (!n.success) throw new UsageError(`-${spec.name}: must be 0 or a positive integer, got '${raw}'`);
      return n.data;
    }
    case 'boolean': {
      const b = parseBooleanText(raw);
      if (b === undefined) throw new UsageError(`-${spec.name}: must be true or false, got '${raw}'`);
      return b;
    }
  }
}

/** Parses argv (without node and script) with `env` fallbacks into a Config. Throws UsageError. */
export function parseFlags(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>> = {},
): Config {
  const values = new Map<keyof Config, Value>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const m = /^--?([a-z][a-z0-9-]*)(?:=(.*))?$/s.exec(arg);
    if (!m) throw new UsageError(`unexpected argument '${arg}'`);
    const spec = FLAGS.find((f) => f.name === m[1]);
    if (!spec) throw new UsageError(`unknown flag '${arg}'`);
    let raw = m[2];
    if (raw === undefined && spec.kind !== 'boolean') {
      raw = argv[++i];
      if (raw === undefined) throw new UsageError(`-${spec.name} needs a value`);
    }
    values.set(spec.field, raw === undefined ? true : convert(spec, raw));
  }
  const config: Record<string, Value | undefined> = {};
  for (const spec of FLAGS) {
    const fromEnv = spec.env === undefined ? undefined : env[spec.env];
    config[spec.field] =
      values.get(spec.field) ??
      (fromEnv !== undefined && fromEnv !== '' ? convert(spec, fromEnv) : spec.default);
  }
  const c = config as unknown as Config;
  if (!c.help && (c.secret === undefined || c.secret === ''))
    throw new UsageError('-secret or AWS_SECRET_ACCESS_KEY is required', 1);
  if (c.putOnly && c.getOnly) throw new UsageError('-put-only and -get-only exclude each other');
  if (c.compare && c.stdS3) throw new UsageError('-compare already runs std-s3; drop -std-s3');
  if (c.memory !== 'host' && c.memory !== 'cuda')
    throw new UsageError(`-memory: must be host or cuda, got '${String(c.memory)}'`);
  if (c.partSize !== undefined && c.partSize < MIN_PART_SIZE)
    throw new UsageError(`-part-size: at least 5 MiB (S3's smallest part), got ${c.partSize}`);
  if (c.partSize !== undefined && c.partSize > TOKEN_CAPACITY)
    throw new UsageError(`-part-size: at most ${TOKEN_CAPACITY} (one RDMA token), got ${c.partSize}`);
  if (c.memory === 'cuda' && c.stdS3)
    throw new UsageError('-memory cuda is for RDMA transfers; drop -std-s3');
  return c;
}

/** The --help text, from the table. */
export function usage(): string {
  const rows = FLAGS.map((f) => {
    const left = `  -${f.name}${f.arg ? ` ${f.arg}` : ''}`;
    const def =
      f.default === undefined || f.default === false
        ? ''
        : ` (default ${f.kind === 'size' ? formatByteSize(Number(f.default)) : String(f.default)})`;
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
