// Runs a gateway's hono app on Node's HTTP server — or, given a certificate and key, its HTTPS
// server (TLS 1.2 and newer only) — through @hono/node-server, with keep-alive, a configurable
// request timeout (0 = none, so long uploads are not cut off at Node's default 300 s; stalled
// bodies are cut by the body idle timeout instead, and the header phase by headersTimeout), an
// optional connection cap, a certificate swap that leaves open connections alone, and a close()
// that drains in-flight requests before dropping connections.

import type { Server } from 'node:http';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { serve } from '@hono/node-server';
import type { LimitCounters } from './limit-stats.js';

/** PEM certificate chain and private key of an HTTPS listener. */
export interface TlsCredentials {
  readonly cert: string | Buffer;
  readonly key: string | Buffer;
}

export interface ListenOptions {
  port: number;
  host?: string;
  /** Serve HTTPS with this certificate and key instead of plain HTTP. */
  tls?: TlsCredentials;
}

export interface RunningGateway {
  host: string;
  port: number;
  /** `http://…` or `https://…`. */
  url: string;
  server: Server | HttpsServer;
  /**
   * HTTPS only: new connections get `credentials` from now on; open ones keep the certificate they
   * were made with and are not dropped. Throws (and changes nothing) when the pair is unusable, or
   * on a plain-HTTP listener.
   */
  setTlsCredentials(credentials: TlsCredentials): void;
  /** Stops accepting, waits (bounded) for in-flight requests, closes idle keep-alive sockets. */
  close(): Promise<void>;
}

interface ServerSettings {
  requestTimeoutMs: number;
  /** How long close() waits for in-flight requests before cutting them. */
  closeGraceMs: number;
  /** Connections beyond this many open ones are closed as soon as accepted; 0: no cap. */
  maxConnections: number;
  /** Where open and dropped connections are counted. */
  counters: LimitCounters;
}

type FetchHandler = Parameters<typeof serve>[0]['fetch'];

const HEADERS_TIMEOUT_MS = 60_000;
const KEEP_ALIVE_TIMEOUT_MS = 65_000;
/** TLS 1.0 and 1.1 are refused in the handshake (the S3 SDKs have required 1.2 for years). */
const MIN_TLS_VERSION = 'TLSv1.2';

export function listen(
  fetch: FetchHandler,
  opts: ListenOptions,
  settings: ServerSettings,
): Promise<RunningGateway> {
  const host = opts.host ?? '127.0.0.1';
  const requestTimeout = settings.requestTimeoutMs;
  // Node requires headersTimeout <= requestTimeout when the latter is set.
  const headersTimeout =
    requestTimeout > 0 ? Math.min(HEADERS_TIMEOUT_MS, requestTimeout) : HEADERS_TIMEOUT_MS;
  const http = { keepAlive: true, keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS, requestTimeout, headersTimeout };
  const { tls } = opts;
  return new Promise((resolve, reject) => {
    const base = { fetch, port: opts.port, hostname: host, overrideGlobalObjects: false };
    const server = (
      tls
        ? serve({
            ...base,
            createServer: createHttpsServer,
            serverOptions: { ...http, cert: tls.cert, key: tls.key, minVersion: MIN_TLS_VERSION },
          })
        : serve({ ...base, serverOptions: http })
    ) as Server | HttpsServer;
    server.once('listening', () => {
      server.off('error', reject);
      const info = server.address() as AddressInfo;
      const urlHost = info.family === 'IPv6' ? `[${info.address}]` : info.address;
      resolve({
        host: info.address,
        port: info.port,
        url: `${tls ? 'https' : 'http'}://${urlHost}:${info.port}`,
        server,
        setTlsCredentials: (next) => {
          if (!tls) throw new Error('setTlsCredentials: this listener serves plain HTTP');
          // Builds the new context first: a bad pair throws here and the old one stays in use.
          (server as HttpsServer).setSecureContext({ cert: next.cert, key: next.key });
        },
        close: () => closeServer(server, settings.closeGraceMs),
      });
    });
    // `Expect: 100-continue`: Node would answer 100 at once; instead the request runs like any
    // other and the router sends the 100 only once the request is authenticated and allowed,
    // so a refused upload gets its 403 before the client sends the body (S3's behaviour).
    server.on('checkContinue', (req, res) => server.emit('request', req, res));
    // Any other Expect value (`Expect: 200`, an empty one): Node would answer 417 by itself; S3
    // ignores the header and serves the request, and so does the gateway (no 100 is sent).
    server.on('checkExpectation', (req, res) => server.emit('request', req, res));
    // Node closes each connection accepted beyond the cap at once (the client sees a reset or
    // EOF before any answer, and the server emits 'drop'); keep-alive connections count until they close.
    if (settings.maxConnections > 0) server.maxConnections = settings.maxConnections;
    countConnections(server, settings.counters);
    server.once('error', reject);
  });
}

/** 'connection' is the TCP accept, before any TLS handshake, so both kinds of server count alike. */
function countConnections(server: Server | HttpsServer, counters: LimitCounters): void {
  server.on('connection', (socket: Socket) => {
    counters.connections++;
    socket.once('close', () => counters.connections--);
  });
  server.on('drop', () => counters.droppedConnections++);
}

async function closeServer(server: Server | HttpsServer, graceMs: number): Promise<void> {
  if (!server.listening) return;
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  // Connections that finish their request while we wait become idle: close those as they appear.
  const sweep = setInterval(() => server.closeIdleConnections(), 50);
  const deadline = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), graceMs).unref());
  server.closeIdleConnections();
  const outcome = await Promise.race([closed.then(() => 'closed' as const), deadline]);
  clearInterval(sweep);
  if (outcome === 'timeout') {
    server.closeAllConnections();
    await closed;
  }
}
