// Starts the web console for run.ts (--webui): loads the bundled files, starts the listener (its
// own TLS pair, or the gateway's), and works out the origins the S3 and admin ports must answer.
// Started before the gateway is built, because the gateway's CORS rule needs the console's
// origin; told where the S3 and admin listeners ended up once they listen (setConfig).

import { StartupError } from '@vgwrdma/errors';
import type { CredentialStore } from '@vgwrdma/gateway';
import type { WebuiConfig } from '../config.js';
import { type ListenAddress, listenerEndpoint } from '../listen-address.js';
import { loadTlsFiles } from '../tls-files.js';
import { defaultConsoleDir, loadConsoleFiles } from './console-files.js';
import { consoleOrigins } from './console-origins.js';
import type { ConsoleStats } from './console-stats.js';
import { type ConsoleEndpoint, startWebuiServer, type WebuiServer } from './webui-server.js';

export interface OpenedWebui {
  readonly server: WebuiServer;
  /** The console's origins, for createGateway({ consoleOrigins }). */
  readonly origins: readonly string[];
  /** For the banner: the console's URL (or unix:<path>). */
  readonly url: string;
}

export async function openWebui(
  config: WebuiConfig,
  deps: { readonly stats: ConsoleStats; readonly credentials: CredentialStore; readonly region: string },
  consoleDir = defaultConsoleDir(),
): Promise<OpenedWebui> {
  let files: Awaited<ReturnType<typeof loadConsoleFiles>>;
  try {
    files = await loadConsoleFiles(consoleDir);
  } catch (error) {
    throw new StartupError(`--webui: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  }
  const tls = config.tls === undefined ? undefined : await loadTlsFiles(config.tls);
  const { listen } = config;
  const server = await startWebuiServer(
    { files, stats: deps.stats, credentials: deps.credentials, region: deps.region, ...(tls ? { tls } : {}) },
    listen.socketPath === undefined
      ? { port: listen.port, host: listen.host }
      : { port: 0, socketPath: listen.socketPath },
  ).catch((error: unknown) => {
    throw new StartupError(
      `--webui: cannot listen: ${error instanceof Error ? error.message : String(error)}`,
      {
        cause: error,
      },
    );
  });
  const bound = { host: server.host, port: server.port };
  return {
    server,
    origins: consoleOrigins(config, bound, tls !== undefined),
    url: listenerEndpoint(listen, bound.host, bound.port, tls !== undefined),
  };
}

/** --webui-s3-url as an endpoint (the port named, or the scheme's). */
export function urlEndpoint(url: string): ConsoleEndpoint {
  const u = new URL(url);
  const scheme = u.protocol === 'https:' ? 'https' : 'http';
  const port = u.port === '' ? (scheme === 'https' ? 443 : 80) : Number(u.port);
  return { scheme, host: u.hostname.replace(/^\[|\]$/g, ''), port };
}

/** Where the browser reaches a listener bound to `host:port` (null host: the page's own). */
export function browserEndpoint(
  address: ListenAddress,
  host: string,
  port: number,
  tls: boolean,
): ConsoleEndpoint {
  return { scheme: tls ? 'https' : 'http', host: address.wildcard ? null : host, port };
}
