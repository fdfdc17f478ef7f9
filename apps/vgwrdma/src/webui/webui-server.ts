// The web console's listener (--webui): its own HTTP(S) server, never the S3 port. It serves the
// console's static files, GET /api/config.json (where the S3 and admin APIs are, the region: no
// secret) and GET /api/stats (the dashboard's one JSON document, admin accounts only, SigV4-signed
// by the browser). Everything it answers carries the console's security headers. The console is
// only a client: every other request the browser makes goes to the S3 / admin ports, signed with
// the user's own keys, and is authorized there as any client's would be.
import {
  createServer as createHttpServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TlsCredentials } from '@vgwrdma/gateway';
import { type ConsoleFiles, findConsoleFile } from './console-files.js';
import { consoleCsp, securityHeaders } from './console-headers.js';
import type { ConsoleStats } from './console-stats.js';
import { authorizeStats, type StatsAuthOptions } from './stats-auth.js';

/** Where the browser finds the gateway; `host` null: the page's own host name (wildcard binds). */
export interface ConsoleEndpoint {
  readonly scheme: 'http' | 'https';
  readonly host: string | null;
  readonly port: number;
}

export interface ConsoleConfig {
  readonly version: string;
  readonly region: string;
  readonly s3: ConsoleEndpoint;
  readonly admin: ConsoleEndpoint;
  /** Whether an RDMA transport is on (the dashboard's RDMA panels). */
  readonly rdma: boolean;
}

export interface WebuiServerOptions extends StatsAuthOptions {
  readonly files: ConsoleFiles;
  readonly stats: ConsoleStats;
  readonly tls?: TlsCredentials;
}

export interface WebuiServer {
  readonly host: string;
  readonly port: number;
  /** Once the gateway listens: what /api/config.json answers and the CSP's connect-src. */
  setConfig(config: ConsoleConfig): void;
  close(): Promise<void>;
}

export interface WebuiListen {
  readonly port: number;
  readonly host?: string;
  readonly socketPath?: string;
}

/** A CSP source for an endpoint; a wildcard host becomes `scheme://*:port`. */
function cspSource(e: ConsoleEndpoint): string {
  return `${e.scheme}://${e.host === null ? '*' : e.host.includes(':') ? `[${e.host}]` : e.host}:${e.port}`;
}

function send(
  res: ServerResponse,
  status: number,
  headers: Record<string, string>,
  body?: string | Buffer,
): void {
  res.writeHead(status, {
    ...headers,
    'content-length': String(body === undefined ? 0 : Buffer.byteLength(body)),
  });
  res.end(body);
}

export function startWebuiServer(opts: WebuiServerOptions, where: WebuiListen): Promise<WebuiServer> {
  let config: ConsoleConfig | undefined;
  let base = securityHeaders(consoleCsp([]));

  const json = (res: ServerResponse, status: number, value: unknown): void =>
    send(
      res,
      status,
      { ...base, 'content-type': 'application/json', 'cache-control': 'no-store' },
      JSON.stringify(value),
    );

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const method = (req.method ?? 'GET').toUpperCase();
    const path = (req.url ?? '/').split('?', 1)[0] ?? '/';
    if (method !== 'GET' && method !== 'HEAD')
      return send(
        res,
        405,
        { ...base, allow: 'GET, HEAD', 'content-type': 'text/plain' },
        'method not allowed\n',
      );
    if (path === '/api/config.json') {
      if (config === undefined) return json(res, 503, { code: 'ServiceUnavailable', message: 'starting' });
      return json(res, 200, config);
    }
    if (path === '/api/stats') {
      const who = await authorizeStats(req, opts);
      if (!who.ok) return json(res, who.status, { code: who.code, message: who.message });
      return json(res, 200, opts.stats.snapshot());
    }
    if (path.startsWith('/api/'))
      return json(res, 404, { code: 'NoSuchKey', message: 'no such console API' });
    const file = findConsoleFile(opts.files, path);
    if (file === undefined) return send(res, 404, { ...base, 'content-type': 'text/plain' }, 'not found\n');
    const gzip = file.gzip !== undefined && /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
    const body = gzip && file.gzip ? file.gzip : file.body;
    const headers = {
      ...base,
      'content-type': file.type,
      'cache-control': file.immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
      vary: 'Accept-Encoding',
      ...(gzip ? { 'content-encoding': 'gzip' } : {}),
    };
    if (method === 'HEAD') {
      res.writeHead(200, { ...headers, 'content-length': String(body.length) });
      res.end();
      return;
    }
    send(res, 200, headers, body);
  };

  const listener = (req: IncomingMessage, res: ServerResponse): void => {
    handle(req, res).catch((error: unknown) => {
      if (res.headersSent) return void res.destroy();
      json(res, 500, {
        code: 'InternalError',
        message: error instanceof Error ? error.message : String(error),
      });
    });
  };
  const server: Server =
    opts.tls === undefined
      ? createHttpServer(listener)
      : createHttpsServer({ cert: opts.tls.cert, key: opts.tls.key, minVersion: 'TLSv1.2' }, listener);

  return new Promise((resolve, reject) => {
    server.once('error', reject);
    const ready = () => {
      server.off('error', reject);
      const info = server.address();
      const bound = typeof info === 'object' && info !== null ? (info as AddressInfo) : undefined;
      resolve({
        host: bound?.address ?? '',
        port: bound?.port ?? 0,
        setConfig(next) {
          config = next;
          base = securityHeaders(consoleCsp([...new Set([cspSource(next.s3), cspSource(next.admin)])]));
        },
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    };
    if (where.socketPath !== undefined) server.listen(where.socketPath, ready);
    else server.listen(where.port, where.host, ready);
  });
}
