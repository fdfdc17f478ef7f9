// The origins a browser shows for the console, which the S3 and admin ports then answer with CORS
// (and no others): the console listener's own address — for a wildcard bind, every local
// interface address, `localhost` and the host name, since a browser may reach it by any of them —
// plus --webui-origin (the public origin behind a reverse proxy). Loopback binds also get
// `localhost`. A unix-socket console has only the --webui-origin ones.
import { hostname, networkInterfaces } from 'node:os';
import type { WebuiConfig } from '../config.js';

const LOOPBACK = new Set(['127.0.0.1', '::1']);

function origin(scheme: string, host: string, port: number): string {
  const shown = host.includes(':') ? `[${host}]` : host;
  const defaultPort = (scheme === 'http' && port === 80) || (scheme === 'https' && port === 443);
  return defaultPort ? `${scheme}://${shown}` : `${scheme}://${shown}:${port}`;
}

function localAddresses(): string[] {
  return Object.values(networkInterfaces())
    .flatMap((list) => list ?? [])
    .map((i) => i.address.replace(/%.*$/, ''));
}

export function consoleOrigins(
  config: WebuiConfig,
  bound: { readonly host: string; readonly port: number },
  tls: boolean,
): string[] {
  const scheme = tls ? 'https' : 'http';
  const hosts =
    config.listen.socketPath !== undefined
      ? []
      : config.listen.wildcard
        ? [...localAddresses(), 'localhost', hostname()]
        : [bound.host, ...(LOOPBACK.has(bound.host) ? ['localhost'] : [])];
  return [...new Set([...hosts.map((h) => origin(scheme, h, bound.port)), ...config.origins])];
}
