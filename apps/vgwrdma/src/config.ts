// Command-line parsing: `vgwrdma [global flags] posix [posix flags] <root>` or
// `vgwrdma [global flags] s3 [s3 flags]` or `vgwrdma [global flags] azure [azure flags]`. The result is a
// typed Command (help, version, or serve with a complete GatewayConfig); every problem is a
// UsageError naming the flag, which the caller prints and exits with status 2.
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { type EtagMode, MD5_ETAG } from '@vgwrdma/backend-contract';
import { type Env, parseArgv, parserOptions, resolveEach, resolveOptions } from '@vgwrdma/cli-options';
import { RDMA_PLUGIN_OPTIONS, type RdmaPluginOptions } from '@vgwrdma/cu-backend';
import { UsageError } from '@vgwrdma/errors';
import { AZURE_FLAGS, type AzureBackendConfig, azureBackendConfig, azureUsage } from './azure-command.js';
import { GLOBAL_FLAGS, GLOBAL_SCHEMA, POSIX_FLAGS, POSIX_SCHEMA } from './flags.js';
import { type IamServiceConfig, iamServiceConfig } from './iam-config.js';
import { UNSUPPORTED_IAM_FLAGS } from './iam-flags.js';
import type { ListenAddress } from './listen-address.js';
import type { AccessLogFormat } from './observability-flags.js';
import { S3_FLAGS, type S3BackendConfig, s3BackendConfig, s3Usage } from './s3-command.js';
import type { TlsFiles } from './tls-files.js';
import { globalUsage, posixUsage } from './usage.js';
import { VERSION } from './version.js';

export interface PosixBackendConfig {
  readonly kind: 'posix';
  /** Absolute path of the gateway root (buckets are its subdirectories). */
  readonly root: string;
  readonly sidecar?: string;
  /** Absolute path of the versioning directory (--versioning-dir), when versioning is on. */
  readonly versioningDir?: string;
  readonly nometa: boolean;
  readonly dirPerms: number;
  /** --etag-mode / --etag-part-size. */
  readonly etagMode: EtagMode;
  /** --file-perms: mode of new object files. */
  readonly filePerms: number;
  /** --concurrency: backend operations in flight at most. */
  readonly concurrency: number;
  /** --chuid / --chgid: new files and directories belong to the requesting account. */
  readonly chownUid: boolean;
  readonly chownGid: boolean;
  /** --bucketlinks: top-level symlinks to directories are buckets. */
  readonly bucketLinks: boolean;
}

/** --admin-port: the admin API's own listener (the S3 listener then refuses admin operations). */
export interface AdminListenerConfig {
  readonly listen: ListenAddress;
  /** --admin-cert / --admin-cert-key (absolute paths): the admin listener serves HTTPS. */
  readonly tls?: TlsFiles;
}

/** --webui: the web console's own listener. */
export interface WebuiConfig {
  readonly listen: ListenAddress;
  /** --webui-cert / --webui-cert-key, else the gateway's --cert / --key (absolute paths). */
  readonly tls?: TlsFiles;
  /** --webui-origin: origins browsers see behind a reverse proxy (beside the listener's own). */
  readonly origins: readonly string[];
  /** --webui-s3-url: the S3 API as the console's browsers reach it (no trailing slash). */
  readonly s3Url?: string;
}

/** --mp-max-parts, --copy-object-threshold, --cors-allow-origin. */
export interface RequestSettings {
  readonly maxParts: number;
  readonly copyObjectThreshold: number;
  readonly corsAllowOrigin?: string;
}

/**
 * Present when --rdma-ip (VGW_RDMA_IP) is given: the options of cu-backend's rdmaPlugin (taken as
 * they are), which wraps the backend in CuServer and puts cu-middleware before the router.
 */
export interface RdmaConfig extends RdmaPluginOptions {
  /** --rdma-ip: the local address the transport binds to. */
  readonly ip: string;
  readonly transport: 'softnic' | 'cuobj';
  /** --rdma-port: the cuobj transport's port; softnic only connects out to client agents. */
  readonly port: number;
}

/** The listener's resource limits (the gateway's GATEWAY_OPTIONS fields); 0 = no limit. */
interface ServerLimits {
  readonly maxConnections: number;
  readonly maxRequests: number;
  readonly bodyIdleTimeoutMs: number;
  /** --shutdown-timeout: the drain at SIGTERM before in-flight requests are cut. */
  readonly shutdownTimeoutMs: number;
}

export interface GatewayConfig {
  readonly listen: ListenAddress;
  /** --admin-port, when given. */
  readonly admin?: AdminListenerConfig;
  /** --socket-perm: mode of file-backed unix sockets. */
  readonly socketPerm?: number;
  readonly requests: RequestSettings;
  readonly limits: ServerLimits;
  readonly access: string;
  readonly secret: string;
  readonly region: string;
  /** --bucket-cache-ttl in ms: how long cached bucket ACL/policy/CORS is trusted. */
  readonly bucketCacheTtlMs: number;
  /** --adopt-ownerless-buckets: the account given every bucket without a recorded owner at start-up. */
  readonly adoptOwnerless?: string;
  readonly healthPath?: string;
  /** --ready: the readiness path (backend probe, RDMA pool and server). */
  readonly readyPath?: string;
  /** --cert / --key (absolute paths): serve HTTPS. */
  readonly tls?: TlsFiles;
  readonly readonly: boolean;
  readonly accessLog?: string;
  readonly accessLogFormat: AccessLogFormat;
  /** --webui: the web console; absent = off. */
  readonly webui?: WebuiConfig;
  /** --metrics-port: the Prometheus listener; absent = no metrics endpoint. */
  readonly metrics?: ListenAddress;
  /** --metrics-per-bucket. */
  readonly metricsPerBucket: boolean;
  readonly virtualDomain?: string;
  readonly disableAcl: boolean;
  /** versitygw --iam-dir: users.json lives here; absent = single root account. */
  readonly iamDir?: string;
  /** --iam-ldap-url / --s3-iam-endpoint: accounts in LDAP or an S3 bucket (iam-config.ts). */
  readonly iamService?: IamServiceConfig;
  readonly quiet: boolean;
  readonly debug: boolean;
  readonly backend: PosixBackendConfig | S3BackendConfig | AzureBackendConfig;
  readonly rdma?: RdmaConfig;
  /** --event-webhook-url: bucket event notifications and their delivery queue. */
  readonly events?: EventsConfig;
}

export interface EventsConfig {
  readonly webhookUrl: string;
  readonly capacity: number;
  readonly maxAttempts: number;
  /** --event-queue-dir, resolved against the working directory. */
  readonly queueDir?: string;
  /** --event-webhook-secret. */
  readonly webhookSecret?: string;
}

export type Command =
  | { readonly kind: 'help'; readonly text: string }
  | { readonly kind: 'version'; readonly text: string }
  | { readonly kind: 'serve'; readonly config: GatewayConfig };

const BACKENDS = ['posix', 's3', 'azure'] as const;

/** The global level's parser options: the table plus the refused Vault/IPA flags (iam-flags.ts). */
const globalOptions = () => parserOptions([...GLOBAL_FLAGS, ...UNSUPPORTED_IAM_FLAGS]);

export function parseCommandLine(argv: readonly string[], env: Env, cwd = process.cwd()): Command {
  const split = splitAtBackend(argv);
  const global = parseArgv(split.globalArgs, globalOptions(), false);
  if (global.values.help === true) return { kind: 'help', text: globalUsage() };
  if (global.values.version === true) return { kind: 'version', text: `vgwrdma ${VERSION}` };
  if (split.backend === undefined) {
    throw new UsageError(
      'no backend given: expected `posix <root>`, `s3 [flags]` or `azure [flags]` after the global flags',
    );
  }
  if (!(BACKENDS as readonly string[]).includes(split.backend)) {
    throw new UsageError(`unknown backend "${split.backend}" (available: ${BACKENDS.join(', ')})`);
  }

  // The s3 backend takes its own flags and no positional root; the rest is shared with posix.
  const s3 = split.backend === 's3' ? parseArgv(split.backendArgs, parserOptions(S3_FLAGS), true) : undefined;
  if (s3?.values.help === true) return { kind: 'help', text: s3Usage() };
  const azure =
    split.backend === 'azure' ? parseArgv(split.backendArgs, parserOptions(AZURE_FLAGS), true) : undefined;
  if (azure?.values.help === true) return { kind: 'help', text: azureUsage() };
  const posix = parseArgv(s3 || azure ? [] : split.backendArgs, parserOptions(POSIX_FLAGS), true);
  if (posix.values.help === true) return { kind: 'help', text: posixUsage() };

  const [g, rdma] = resolveEach([GLOBAL_SCHEMA, RDMA_PLUGIN_OPTIONS], global.values, env);
  const iamDir = g['iam-dir'] === undefined ? undefined : resolve(cwd, g['iam-dir']);
  const iamService = iamServiceConfig(global.values, env, iamDir);
  const p = resolveOptions(POSIX_SCHEMA, posix.values, env);
  const remoteBackend = s3
    ? s3BackendConfig(s3.values, s3.positionals, env)
    : azure
      ? azureBackendConfig(azure.values, azure.positionals, env)
      : undefined;

  const [root, ...extra] = posix.positionals;
  if (!remoteBackend && (root === undefined || root === '')) {
    throw new UsageError('no directory provided for operation: usage `vgwrdma posix [flags] <root>`');
  }
  if (extra.length > 0) throw new UsageError(`unexpected argument(s) after the root: ${extra.join(' ')}`);
  if (g.access === undefined || g.secret === undefined) {
    const missing = [g.access === undefined ? '--access' : '', g.secret === undefined ? '--secret' : '']
      .filter(Boolean)
      .join(' and ');
    throw new UsageError(
      `root user access and secret key must be provided (missing ${missing}): pass --access/-a and ` +
        '--secret/-s, or set ROOT_ACCESS_KEY_ID and ROOT_SECRET_ACCESS_KEY',
    );
  }
  if ((g.cert === undefined) !== (g.key === undefined)) {
    const [given, missing] = g.cert === undefined ? ['--key', '--cert'] : ['--cert', '--key'];
    throw new UsageError(
      `${given} needs ${missing} too: HTTPS takes a certificate and its key (VGW_CERT, VGW_KEY)`,
    );
  }
  const adminTls = adminTlsFiles(g['admin-cert'], g['admin-cert-key'], g['admin-port'] !== undefined, cwd);
  const webui = webuiConfig(g, cwd);
  if (p.nometa && p.sidecar !== undefined) {
    throw new UsageError('cannot use both --nometa and --sidecar metadata');
  }

  const backend: PosixBackendConfig | S3BackendConfig | AzureBackendConfig = remoteBackend ?? {
    kind: 'posix',
    root: resolve(cwd, root ?? ''),
    nometa: p.nometa,
    dirPerms: p.dirPerms,
    etagMode: p.etagMode === 'parts' ? { kind: 'parts', partSize: p.etagPartSize } : MD5_ETAG,
    filePerms: p.filePerms,
    concurrency: p.concurrency,
    chownUid: p.chownUid,
    chownGid: p.chownGid,
    bucketLinks: p.bucketLinks,
    ...(p.sidecar === undefined ? {} : { sidecar: resolve(cwd, p.sidecar) }),
    ...(p.versioningDir === undefined ? {} : { versioningDir: resolve(cwd, p.versioningDir) }),
  };
  return {
    kind: 'serve',
    config: {
      listen: g.port,
      ...(g['admin-port'] === undefined
        ? {}
        : { admin: { listen: g['admin-port'], ...(adminTls === undefined ? {} : { tls: adminTls }) } }),
      ...(g['socket-perm'] === undefined ? {} : { socketPerm: g['socket-perm'] }),
      requests: {
        maxParts: g['mp-max-parts'],
        copyObjectThreshold: g['copy-object-threshold'],
        ...(g['cors-allow-origin'] === undefined ? {} : { corsAllowOrigin: g['cors-allow-origin'] }),
      },
      limits: {
        maxConnections: g['max-connections'],
        maxRequests: g['max-requests'],
        bodyIdleTimeoutMs: g['body-idle-timeout'],
        shutdownTimeoutMs: g['shutdown-timeout'],
      },
      access: g.access,
      secret: g.secret,
      region: g.region,
      // The flag's text always yields a TTL (the gateway's bucketStateCache field, from seconds).
      bucketCacheTtlMs: g['bucket-cache-ttl'].ttlMs ?? 0,
      ...(g['adopt-ownerless-buckets'] === undefined ? {} : { adoptOwnerless: g['adopt-ownerless-buckets'] }),
      readonly: g.readonly,
      disableAcl: g['disable-acl'],
      quiet: g.quiet,
      debug: g.debug,
      accessLogFormat: g['access-log-format'],
      ...(g['metrics-port'] === undefined ? {} : { metrics: g['metrics-port'] }),
      ...(webui === undefined ? {} : { webui }),
      metricsPerBucket: g['metrics-per-bucket'],
      backend,
      ...(g.health === undefined ? {} : { healthPath: g.health }),
      ...(g.ready === undefined ? {} : { readyPath: g.ready }),
      ...(g.cert === undefined || g.key === undefined
        ? {}
        : { tls: { certFile: resolve(cwd, g.cert), keyFile: resolve(cwd, g.key) } }),
      // The CLI fills every defaulted field, so ip, transport and port are all present here.
      ...(rdma.ip === undefined ? {} : { rdma: { ...rdma, vendorDebug: g.debug } as RdmaConfig }),
      ...(g['virtual-domain'] === undefined ? {} : { virtualDomain: g['virtual-domain'] }),
      ...(g['access-log'] === undefined ? {} : { accessLog: resolve(cwd, g['access-log']) }),
      ...(iamDir === undefined ? {} : { iamDir }),
      ...(iamService === undefined ? {} : { iamService }),
      ...(g['event-webhook-url'] === undefined
        ? {}
        : {
            events: {
              webhookUrl: g['event-webhook-url'],
              capacity: g['event-queue-size'],
              maxAttempts: g['event-max-attempts'],
              ...(g['event-queue-dir'] === undefined ? {} : { queueDir: resolve(cwd, g['event-queue-dir']) }),
              ...(g['event-webhook-secret'] === undefined
                ? {}
                : { webhookSecret: g['event-webhook-secret'] }),
            },
          }),
    },
  };
}

/** --admin-cert and --admin-cert-key go together, and only with --admin-port. */
function adminTlsFiles(
  cert: string | undefined,
  key: string | undefined,
  adminPort: boolean,
  cwd: string,
): TlsFiles | undefined {
  if (cert === undefined && key === undefined) return undefined;
  if (cert === undefined || key === undefined) {
    const [given, missing] =
      cert === undefined ? ['--admin-cert-key', '--admin-cert'] : ['--admin-cert', '--admin-cert-key'];
    throw new UsageError(
      `${given} needs ${missing} too: the admin listener's HTTPS takes a certificate and its key (VGW_ADMIN_CERT, VGW_ADMIN_CERT_KEY)`,
    );
  }
  if (!adminPort)
    throw new UsageError('--admin-cert and --admin-cert-key need --admin-port (VGW_ADMIN_PORT)');
  return { certFile: resolve(cwd, cert), keyFile: resolve(cwd, key) };
}

/**
 * --webui with its TLS pair (both or neither; by default the gateway's --cert / --key) and
 * --webui-origin; the pair and the origins need --webui.
 */
function webuiConfig(
  g: {
    readonly webui?: ListenAddress | undefined;
    readonly 'webui-cert'?: string | undefined;
    readonly 'webui-cert-key'?: string | undefined;
    readonly 'webui-origin'?: readonly string[] | undefined;
    readonly 'webui-s3-url'?: string | undefined;
    readonly cert?: string | undefined;
    readonly key?: string | undefined;
  },
  cwd: string,
): WebuiConfig | undefined {
  const cert = g['webui-cert'];
  const key = g['webui-cert-key'];
  if ((cert === undefined) !== (key === undefined)) {
    const [given, missing] =
      cert === undefined ? ['--webui-cert-key', '--webui-cert'] : ['--webui-cert', '--webui-cert-key'];
    throw new UsageError(
      `${given} needs ${missing} too: the web console's HTTPS takes a certificate and its key (VGW_WEBUI_CERT, VGW_WEBUI_CERT_KEY)`,
    );
  }
  if (g.webui === undefined) {
    if (cert !== undefined || g['webui-origin'] !== undefined || g['webui-s3-url'] !== undefined)
      throw new UsageError(
        '--webui-cert, --webui-cert-key, --webui-origin and --webui-s3-url need --webui (VGW_WEBUI)',
      );
    return undefined;
  }
  const pair =
    cert !== undefined && key !== undefined
      ? { certFile: resolve(cwd, cert), keyFile: resolve(cwd, key) }
      : g.cert !== undefined && g.key !== undefined
        ? { certFile: resolve(cwd, g.cert), keyFile: resolve(cwd, g.key) }
        : undefined;
  return {
    listen: g.webui,
    ...(pair === undefined ? {} : { tls: pair }),
    origins: g['webui-origin'] ?? [],
    ...(g['webui-s3-url'] === undefined ? {} : { s3Url: g['webui-s3-url'] }),
  };
}

interface SplitArgs {
  readonly globalArgs: readonly string[];
  readonly backend: string | undefined;
  readonly backendArgs: readonly string[];
}

/** The first positional word is the backend; flags before it are global, after it the backend's. */
function splitAtBackend(argv: readonly string[]): SplitArgs {
  const { tokens } = parseArgs({
    args: [...argv],
    options: globalOptions(),
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  const first = tokens.find((token) => token.kind === 'positional' || token.kind === 'option-terminator');
  if (first === undefined) return { globalArgs: argv, backend: undefined, backendArgs: [] };
  if (first.kind === 'option-terminator') {
    return {
      globalArgs: argv.slice(0, first.index),
      backend: argv[first.index + 1],
      backendArgs: argv.slice(first.index + 2),
    };
  }
  return {
    globalArgs: argv.slice(0, first.index),
    backend: first.value,
    backendArgs: argv.slice(first.index + 1),
  };
}
