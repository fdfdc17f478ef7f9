// The command-line options of vgwrdma's global level and of its posix backend, as zod schemas whose
// fields carry their flag metadata (@vgwrdma/cli-options derives parsing, the environment fallback,
// validation and --help from them). Names, aliases and environment variables follow versitygw
// (cmd/versitygw/main.go, posix.go), so an operator's scripts and unit files carry over unchanged.
import { POSIX_BACKEND_OPTIONS } from '@vgwrdma/backend-posix';
import { type CliOption, cliOptions, HELP_OPTION, nonEmpty, option } from '@vgwrdma/cli-options';
import { RDMA_PLUGIN_OPTIONS } from '@vgwrdma/cu-backend';
import { z } from 'zod';
import { EVENT_OPTIONS } from './event-flags.js';
import { IAM_OPTIONS } from './iam-flags.js';
import { hourSeconds, LIMIT_OPTIONS } from './limit-flags.js';
import { listenAddress } from './listen-address.js';
import { LISTENER_OPTIONS } from './listener-flags.js';
import { OBSERVABILITY_OPTIONS } from './observability-flags.js';
import { REQUEST_OPTIONS } from './request-flags.js';
import { TLS_OPTIONS } from './tls-flags.js';
import { WEBUI_OPTIONS } from './webui-flags.js';

const boolFlag = z.boolean();

const healthPath = z.string().regex(/^\/\S*$/, "must be a path starting with '/', e.g. /health");

export const GLOBAL_OPTIONS = {
  port: option(listenAddress, {
    short: 'p',
    env: ['VGW_PORT'],
    default: ':7070',
    arg: 'ADDR',
    help: 'gateway listen address <ip>:<port> or :<port> (port 0 picks a free port), or a unix socket /path, unix:/path or @name',
  }),
  access: option(nonEmpty, {
    short: 'a',
    env: ['ROOT_ACCESS_KEY_ID', 'ROOT_ACCESS_KEY'],
    arg: 'KEY',
    help: 'root user access key',
  }).optional(),
  secret: option(nonEmpty, {
    short: 's',
    env: ['ROOT_SECRET_ACCESS_KEY', 'ROOT_SECRET_KEY'],
    arg: 'SECRET',
    help: 'root user secret access key',
  }).optional(),
  region: option(z.string().regex(/^[a-z0-9-]+$/, 'must be a region name such as us-east-1'), {
    short: 'r',
    env: ['VGW_REGION'],
    default: 'us-east-1',
    arg: 'REGION',
    help: 's3 region string',
  }),
  health: option(healthPath, {
    env: ['VGW_HEALTH'],
    arg: 'PATH',
    help: "liveness endpoint path, answered 200 on GET while the process serves (must start with '/', e.g. /health)",
  }).optional(),
  ready: option(healthPath, {
    env: ['VGW_READY'],
    arg: 'PATH',
    help: 'readiness endpoint path: 200 when the backend answers a probe (and, with RDMA, the pool and RDMA server are up), 503 otherwise (e.g. /ready)',
  }).optional(),
  readonly: option(boolFlag, {
    env: ['VGW_READ_ONLY'],
    default: false,
    help: 'allow only read operations across all the gateway',
  }),
  'virtual-domain': option(
    z.string().regex(/^[a-z0-9.-]+(:\d+)?$/i, 'must be a domain such as s3.example.com'),
    {
      aliases: ['vd'],
      env: ['VGW_VIRTUAL_DOMAIN'],
      arg: 'DOMAIN',
      help: 'also accept virtual-host style requests (<bucket>.DOMAIN); path style always works',
    },
  ).optional(),
  'disable-acl': option(boolFlag, {
    aliases: ['noacl'],
    env: ['VGW_DISABLE_ACL'],
    default: false,
    help: 'disable bucket ACLs: ACL headers are ignored and Put*Acl is refused',
  }),
  'iam-dir': option(nonEmpty, {
    env: ['VGW_IAM_DIR'],
    arg: 'DIR',
    help: 'if defined, run the internal IAM service: user accounts in DIR/users.json (versitygw format)',
  }).optional(),
  // --iam-ldap-*, --s3-iam-*, --iam-cache-*: accounts in LDAP or an S3 bucket (iam-flags.ts).
  ...IAM_OPTIONS,
  'access-log': option(nonEmpty, {
    env: ['LOGFILE', 'VGW_ACCESS_LOG'],
    arg: 'FILE',
    help: 'enable server access logging to specified file',
  }).optional(),
  quiet: option(boolFlag, {
    short: 'q',
    env: ['VGW_QUIET'],
    default: false,
    help: 'silence per-request log output',
  }),
  debug: option(boolFlag, { env: ['VGW_DEBUG'], default: false, help: 'enable debug output' }),
  // --cert, --key: HTTPS on the S3 port (tls-flags.ts).
  ...TLS_OPTIONS,
  // --admin-port and its TLS pair, --socket-perm (listener-flags.ts).
  ...LISTENER_OPTIONS,
  // --mp-max-parts, --copy-object-threshold, --cors-allow-origin (request-flags.ts).
  ...REQUEST_OPTIONS,
  // --metrics-port, --access-log-format (observability-flags.ts).
  ...OBSERVABILITY_OPTIONS,
  // --webui, its TLS pair and --webui-origin: the web console (webui-flags.ts).
  ...WEBUI_OPTIONS,
  // --max-connections, --max-requests, --body-idle-timeout (limit-flags.ts).
  ...LIMIT_OPTIONS,
  // How long a gateway trusts its cached copy of a bucket's ACL, policy, ownership, public access
  // block and CORS rules (gateway's BucketStateCache). A write through this gateway invalidates
  // its copy at once; the TTL bounds how long a write through ANOTHER gateway on the same backend
  // takes to be enforced here (docs/deployment.md).
  'bucket-cache-ttl': option(hourSeconds('5'), {
    env: ['VGW_BUCKET_CACHE_TTL'],
    default: '5',
    arg: 'SECONDS',
    help: "how long a bucket's cached ACL/policy/CORS is trusted: the most a change made through another gateway on the same backend takes to apply here",
  }),
  // At start-up, give every bucket without a recorded owner (a directory an operator made in the
  // posix root, a bucket created directly upstream or in Azure) to one named account. Without it
  // such buckets stay nobody's: served to admin accounts only, and CreateBucket answers
  // BucketAlreadyExists to everyone else (docs/security.md).
  'adopt-ownerless-buckets': option(nonEmpty, {
    env: ['VGW_ADOPT_OWNERLESS_BUCKETS'],
    arg: 'ACCESS',
    help: 'at start-up, make the account with access key ACCESS the owner of every bucket that has no recorded owner (otherwise such buckets are served to admins only, and CreateBucket on them answers BucketAlreadyExists)',
  }).optional(),
  // --event-webhook-url and its delivery queue (event-flags.ts).
  ...EVENT_OPTIONS,
  version: option(boolFlag, { short: 'v', default: false, help: 'print the vgwrdma version and exit' }),
  ...HELP_OPTION,
};

/** The posix level: the backend's own options (backend-posix) and -h. */
export const POSIX_OPTIONS = {
  ...POSIX_BACKEND_OPTIONS.shape,
  ...HELP_OPTION,
};

/** The global level: the gateway's options (their --rdma-* flags come from cu-backend's schema). */
export const GLOBAL_SCHEMA = z.object(GLOBAL_OPTIONS);
export const POSIX_SCHEMA = z.object(POSIX_OPTIONS);

const globals = cliOptions(GLOBAL_SCHEMA);
const last = new Set(['version', 'help']);

/** The global flags in --help order: the gateway's, the --rdma-* ones, then --version and --help. */
export const GLOBAL_FLAGS: readonly CliOption[] = [
  ...globals.filter((o) => !last.has(o.name)),
  ...cliOptions(RDMA_PLUGIN_OPTIONS),
  ...globals.filter((o) => last.has(o.name)),
];
export const POSIX_FLAGS: readonly CliOption[] = cliOptions(POSIX_SCHEMA);
