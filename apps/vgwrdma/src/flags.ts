// The command-line flag tables. One row per flag drives everything else: the `node:util`
// parseArgs options, the environment-variable fallback, zod validation and the --help text.
// Names, aliases and environment variables follow versitygw (cmd/versitygw/main.go, posix.go),
// so an operator's scripts and unit files carry over unchanged.
import { z } from 'zod';
import { ADOPT_FLAGS } from './adopt-flags.js';
import { BUCKET_CACHE_FLAGS } from './bucket-cache-flags.js';
import { ETAG_FLAGS } from './etag-flags.js';
import { EVENT_FLAGS } from './event-flags.js';
import { IAM_FLAGS } from './iam-flags.js';
import { LIMIT_FLAGS } from './limit-flags.js';
import { listenAddress } from './listen-address.js';
import { LISTENER_FLAGS } from './listener-flags.js';
import { OBSERVABILITY_FLAGS } from './observability-flags.js';
import { octalMode } from './octal-mode.js';
import { POSIX_EXTRA_FLAGS } from './posix-flags.js';
import { RDMA_FLAGS } from './rdma-flags.js';
import { REQUEST_FLAGS } from './request-flags.js';
import { TLS_FLAGS } from './tls-flags.js';
import { WEBUI_FLAGS } from './webui-flags.js';

export interface FlagSpec {
  /** Long name, without the leading dashes. */
  readonly name: string;
  readonly short?: string;
  /** Further long names (versitygw's multi-letter aliases, e.g. --noacl), given as `--alias`. */
  readonly aliases?: readonly string[];
  readonly type: 'string' | 'boolean';
  /** Environment variables read, in order, when the flag is not given. */
  readonly env: readonly string[];
  /** Validates and converts the raw string (or boolean) into its typed value. */
  readonly schema: z.ZodType;
  /** Value used when neither the flag nor an environment variable is set. */
  readonly default?: string | boolean;
  /** Placeholder shown in --help for string flags. */
  readonly arg?: string;
  readonly help: string;
}

const nonEmpty = z.string().min(1, 'must not be empty');

/** Booleans from the environment: versitygw accepts Go's strconv.ParseBool spellings. */
export const envBoolean = z.stringbool({
  truthy: ['1', 't', 'true', 'yes', 'y', 'on'],
  falsy: ['0', 'f', 'false', 'no', 'n', 'off', ''],
});

const boolFlag = z.boolean();

const healthPath = z.string().regex(/^\/\S*$/, "must be a path starting with '/', e.g. /health");

/** -h / --help, the same in every command's table. */
export const HELP_FLAG = {
  name: 'help',
  short: 'h',
  type: 'boolean',
  env: [],
  schema: boolFlag,
  default: false,
  help: 'show this help',
} as const satisfies FlagSpec;
export const GLOBAL_FLAGS = [
  {
    name: 'port',
    short: 'p',
    type: 'string',
    env: ['VGW_PORT'],
    schema: listenAddress,
    default: ':7070',
    arg: 'ADDR',
    help: 'gateway listen address <ip>:<port> or :<port> (port 0 picks a free port), or a unix socket /path, unix:/path or @name',
  },
  {
    name: 'access',
    short: 'a',
    type: 'string',
    env: ['ROOT_ACCESS_KEY_ID', 'ROOT_ACCESS_KEY'],
    schema: nonEmpty,
    arg: 'KEY',
    help: 'root user access key',
  },
  {
    name: 'secret',
    short: 's',
    type: 'string',
    env: ['ROOT_SECRET_ACCESS_KEY', 'ROOT_SECRET_KEY'],
    schema: nonEmpty,
    arg: 'SECRET',
    help: 'root user secret access key',
  },
  {
    name: 'region',
    short: 'r',
    type: 'string',
    env: ['VGW_REGION'],
    schema: z.string().regex(/^[a-z0-9-]+$/, 'must be a region name such as us-east-1'),
    default: 'us-east-1',
    arg: 'REGION',
    help: 's3 region string',
  },
  {
    name: 'health',
    type: 'string',
    env: ['VGW_HEALTH'],
    schema: healthPath,
    arg: 'PATH',
    help: "liveness endpoint path, answered 200 on GET while the process serves (must start with '/', e.g. /health)",
  },
  {
    name: 'ready',
    type: 'string',
    env: ['VGW_READY'],
    schema: healthPath,
    arg: 'PATH',
    help: 'readiness endpoint path: 200 when the backend answers a probe (and, with RDMA, the pool and RDMA server are up), 503 otherwise (e.g. /ready)',
  },
  {
    name: 'readonly',
    type: 'boolean',
    env: ['VGW_READ_ONLY'],
    schema: boolFlag,
    default: false,
    help: 'allow only read operations across all the gateway',
  },
  {
    name: 'virtual-domain',
    aliases: ['vd'],
    type: 'string',
    env: ['VGW_VIRTUAL_DOMAIN'],
    schema: z.string().regex(/^[a-z0-9.-]+(:\d+)?$/i, 'must be a domain such as s3.example.com'),
    arg: 'DOMAIN',
    help: 'also accept virtual-host style requests (<bucket>.DOMAIN); path style always works',
  },
  {
    name: 'disable-acl',
    aliases: ['noacl'],
    type: 'boolean',
    env: ['VGW_DISABLE_ACL'],
    schema: boolFlag,
    default: false,
    help: 'disable bucket ACLs: ACL headers are ignored and Put*Acl is refused',
  },
  {
    name: 'iam-dir',
    type: 'string',
    env: ['VGW_IAM_DIR'],
    schema: nonEmpty,
    arg: 'DIR',
    help: 'if defined, run the internal IAM service: user accounts in DIR/users.json (versitygw format)',
  },
  // --iam-ldap-*, --s3-iam-*, --iam-cache-*: accounts in LDAP or an S3 bucket (iam-flags.ts).
  ...IAM_FLAGS,
  {
    name: 'access-log',
    type: 'string',
    env: ['LOGFILE', 'VGW_ACCESS_LOG'],
    schema: nonEmpty,
    arg: 'FILE',
    help: 'enable server access logging to specified file',
  },
  {
    name: 'quiet',
    short: 'q',
    type: 'boolean',
    env: ['VGW_QUIET'],
    schema: boolFlag,
    default: false,
    help: 'silence per-request log output',
  },
  {
    name: 'debug',
    type: 'boolean',
    env: ['VGW_DEBUG'],
    schema: boolFlag,
    default: false,
    help: 'enable debug output',
  },
  // --cert, --key: HTTPS on the S3 port (tls-flags.ts).
  ...TLS_FLAGS,
  // --admin-port and its TLS pair, --socket-perm (listener-flags.ts).
  ...LISTENER_FLAGS,
  // --mp-max-parts, --copy-object-threshold, --cors-allow-origin (request-flags.ts).
  ...REQUEST_FLAGS,
  // --metrics-port, --access-log-format (observability-flags.ts).
  ...OBSERVABILITY_FLAGS,
  // --webui, its TLS pair and --webui-origin: the web console (webui-flags.ts).
  ...WEBUI_FLAGS,
  // --max-connections, --max-requests, --body-idle-timeout (limit-flags.ts).
  ...LIMIT_FLAGS,
  // --bucket-cache-ttl (bucket-cache-flags.ts).
  ...BUCKET_CACHE_FLAGS,
  // --adopt-ownerless-buckets (adopt-flags.ts).
  ...ADOPT_FLAGS,
  // --event-webhook-url and its delivery queue (event-flags.ts).
  ...EVENT_FLAGS,
  // --rdma-ip turns RDMA on; the other --rdma-* / --pool-* flags tune it (rdma-flags.ts).
  ...RDMA_FLAGS,
  {
    name: 'version',
    short: 'v',
    type: 'boolean',
    env: [],
    schema: boolFlag,
    default: false,
    help: 'print the vgwrdma version and exit',
  },
  HELP_FLAG,
] as const satisfies readonly FlagSpec[];

export const POSIX_FLAGS = [
  {
    name: 'sidecar',
    type: 'string',
    env: ['VGW_META_SIDECAR'],
    schema: nonEmpty,
    arg: 'DIR',
    help: 'store metadata as files under DIR instead of extended attributes',
  },
  {
    name: 'versioning-dir',
    type: 'string',
    env: ['VGW_VERSIONING_DIR'],
    schema: nonEmpty,
    arg: 'DIR',
    help: 'the directory path to enable bucket versioning (non-current versions are kept there)',
  },
  {
    name: 'nometa',
    type: 'boolean',
    env: ['VGW_META_NONE'],
    schema: boolFlag,
    default: false,
    help: 'disable metadata storage',
  },
  {
    name: 'dir-perms',
    type: 'string',
    env: ['VGW_DIR_PERMS'],
    schema: octalMode,
    default: '0755',
    arg: 'MODE',
    help: 'default directory permissions for new directories (octal)',
  },
  ...ETAG_FLAGS,
  // --file-perms, --concurrency (posix-flags.ts).
  ...POSIX_EXTRA_FLAGS,
  HELP_FLAG,
] as const satisfies readonly FlagSpec[];

/** The parseArgs `options` object for a flag table. */
export function parseArgsOptions(
  flags: readonly FlagSpec[],
): Record<string, { type: 'string' | 'boolean'; short?: string }> {
  const options: Record<string, { type: 'string' | 'boolean'; short?: string }> = {};
  for (const flag of flags) {
    options[flag.name] = flag.short ? { type: flag.type, short: flag.short } : { type: flag.type };
    for (const alias of flag.aliases ?? []) options[alias] = { type: flag.type };
  }
  return options;
}
