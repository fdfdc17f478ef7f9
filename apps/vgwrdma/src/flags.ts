// The command-line options of vgwrdma's global level and of its posix backend, as zod schemas whose
// fields carry their flag metadata (@vgwrdma/cli-options derives parsing, the environment fallback,
// validation and --help from them). Names, aliases and environment variables follow versitygw
// (cmd/versitygw/main.go, posix.go), so an operator's scripts and unit files carry over unchanged.
// The gateway's own settings (region, paths, limits, timeouts, request rules, the bucket cache)
// are @vgwrdma/gateway's GATEWAY_OPTIONS fields, placed here in --help order; the --rdma-* flags
// are cu-backend's RDMA_PLUGIN_OPTIONS; the posix level is backend-posix's schema.
import { POSIX_BACKEND_OPTIONS } from '@vgwrdma/backend-posix';
import { type CliOption, cliOptions, HELP_OPTION, nonEmpty, option } from '@vgwrdma/cli-options';
import { RDMA_PLUGIN_OPTIONS } from '@vgwrdma/cu-backend';
import { GATEWAY_OPTIONS } from '@vgwrdma/gateway';
import { z } from 'zod';
import { EVENT_OPTIONS } from './event-flags.js';
import { IAM_OPTIONS } from './iam-flags.js';
import { listenAddress } from './listen-address.js';
import { LISTENER_OPTIONS } from './listener-flags.js';
import { OBSERVABILITY_OPTIONS } from './observability-flags.js';
import { TLS_OPTIONS } from './tls-flags.js';
import { WEBUI_OPTIONS } from './webui-flags.js';

const boolFlag = z.boolean();

/**
 * The gateway's settings. A field with a command-line default is unwrapped from its `.optional()`
 * (a program may leave it out; the command line always fills it), so the parsed value is present.
 */
const gw = GATEWAY_OPTIONS.shape;

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
  region: gw.region.unwrap(),
  health: gw.healthPath,
  ready: gw.readyPath,
  readonly: gw.readonly.unwrap(),
  'virtual-domain': gw.virtualHostDomain,
  'disable-acl': gw.disableAcl.unwrap(),
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
  // versitygw's --mp-max-parts, --copy-object-threshold, --cors-allow-origin (the gateway's).
  'mp-max-parts': gw.multipartMaxParts.unwrap(),
  'copy-object-threshold': gw.copyObjectThreshold.unwrap(),
  'cors-allow-origin': gw.corsAllowOrigin,
  // --metrics-port, --access-log-format (observability-flags.ts).
  ...OBSERVABILITY_OPTIONS,
  // --webui, its TLS pair and --webui-origin: the web console (webui-flags.ts).
  ...WEBUI_OPTIONS,
  // The listener's limits (versitygw's --max-connections / --max-requests), --body-idle-timeout
  // and --shutdown-timeout (the drain at SIGTERM; 30 s like the systemd unit's TimeoutStopSec).
  'max-connections': gw.maxConnections.unwrap(),
  'max-requests': gw.maxRequests.unwrap(),
  'body-idle-timeout': gw.bodyIdleTimeoutMs.unwrap(),
  'shutdown-timeout': gw.shutdownTimeoutMs.unwrap(),
  // How long cached bucket ACL/policy/CORS is trusted (the gateway's bucketStateCache).
  'bucket-cache-ttl': gw.bucketStateCache.unwrap(),
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
