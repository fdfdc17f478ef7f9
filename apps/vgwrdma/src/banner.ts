// The startup banner printed on stdout once the gateway listens. Tests and scripts read the
// `endpoint:` line to learn the port (`--port 127.0.0.1:0` picks a free one).

import { azureBannerRows } from './azure-command.js';
import type { GatewayConfig, PosixBackendConfig } from './config.js';
import { DEFAULT_CREDENTIALS } from './defaults.js';
import { endpointUrl, type ListenAddress, listenerEndpoint } from './listen-address.js';
import { s3BannerRows } from './s3-command.js';
import { VERSION } from './version.js';

interface BannerInput {
  readonly config: GatewayConfig;
  /** The address actually bound (the real port when 0 was asked for). */
  readonly host: string;
  readonly port: number;
  /** The admin listener actually bound, with --admin-port. */
  readonly admin?: { readonly host: string; readonly port: number };
  /** The Prometheus listener actually bound, with --metrics-port. */
  readonly metrics?: { readonly host: string; readonly port: number };
  /** The web console's URL (or unix:<path>), with --webui. */
  readonly webui?: string;
}

/** Only the public default secret is ever printed; any other stays hidden. */
function secretLine(secret: string): string {
  return secret === DEFAULT_CREDENTIALS.secret
    ? secret
    : '(hidden; as given by --secret / ROOT_SECRET_ACCESS_KEY)';
}

function metadataMode(backend: PosixBackendConfig): string {
  if (backend.nometa) return 'no metadata';
  return backend.sidecar === undefined ? 'xattr metadata' : `sidecar metadata in ${backend.sidecar}`;
}

function etagRows(backend: PosixBackendConfig): [string, string][] {
  const mode = backend.etagMode;
  return mode.kind === 'parts'
    ? [['etag', `parts of ${mode.partSize} bytes (multipart form above one part)`]]
    : [];
}

function listening(address: ListenAddress, host: string, port: number): string {
  if (address.socketPath !== undefined) return `unix socket ${address.socketPath}`;
  return address.wildcard ? `all interfaces, port ${port}` : `${host}:${port}`;
}

export function formatBanner({ config, host, port, admin, metrics, webui }: BannerInput): string {
  const rows: [string, string][] = [
    ['endpoint', listenerEndpoint(config.listen, host, port, config.tls !== undefined)],
    ['listening', listening(config.listen, host, port)],
    ['region', config.region],
    ['access key', config.access],
    ['secret key', secretLine(config.secret)],
    ...(config.backend.kind === 's3'
      ? s3BannerRows(config.backend)
      : config.backend.kind === 'azure'
        ? azureBannerRows(config.backend)
        : ([
            ['backend', `posix (${metadataMode(config.backend)})`],
            ['root', config.backend.root],
            ...etagRows(config.backend),
          ] as [string, string][])),
  ];
  if (config.rdma !== undefined) {
    const { transport, ip, poolBufCount, poolBufSize } = config.rdma;
    rows.push(['rdma', `${transport} on ${ip}, ${poolBufCount} x ${poolBufSize} byte buffers`]);
  }
  if (config.readonly) rows.push(['mode', 'read-only']);
  if (config.tls !== undefined) rows.push(['tls', `${config.tls.certFile} (TLS 1.2+, reloaded on SIGHUP)`]);
  if (config.healthPath !== undefined) rows.push(['health', config.healthPath]);
  if (config.readyPath !== undefined) rows.push(['ready', config.readyPath]);
  if (config.virtualDomain !== undefined) rows.push(['vhost', `<bucket>.${config.virtualDomain}`]);
  if (config.disableAcl) rows.push(['acl', 'disabled']);
  if (config.iamDir !== undefined) rows.push(['iam dir', config.iamDir]);
  if (config.iamService !== undefined) rows.push(['iam', iamRow(config.iamService)]);
  if (config.accessLog !== undefined) rows.push(['access log', config.accessLog]);
  if (admin !== undefined && config.admin !== undefined) {
    const where = listenerEndpoint(
      config.admin.listen,
      admin.host,
      admin.port,
      config.admin.tls !== undefined,
    );
    rows.push(['admin', `${where} (admin API only; the S3 port refuses it)`]);
  }
  if (config.requests.corsAllowOrigin !== undefined)
    rows.push(['cors', `default origin ${config.requests.corsAllowOrigin}`]);
  if (webui !== undefined) rows.push(['webui', `${webui}/ (web console)`]);
  if (metrics !== undefined) rows.push(['metrics', `${endpointUrl(metrics.host, metrics.port)}/metrics`]);
  const body = rows.map(([key, value]) => `  ${`${key}:`.padEnd(12)}${value}`).join('\n');
  return `vgwrdma ${VERSION} S3 gateway ready\n${body}\n`;
}

/** Where the accounts are and how long they are cached; never the bind password or secret key. */
function iamRow(service: NonNullable<GatewayConfig['iamService']>): string {
  const where =
    service.kind === 'ldap'
      ? `ldap ${service.ldap.url} (${service.ldap.queryBase})`
      : `s3 ${service.s3.endpoint}/${service.s3.bucket}/users.json`;
  return `${where}, ${service.cache === undefined ? 'no cache' : `cache ttl ${service.cache.ttlMs / 1000} s`}`;
}
