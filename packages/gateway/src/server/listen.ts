// Runs a gateway's hono app on Node's HTTP server — or, given a certificate and key, its HTTPS
// server (TLS 1.2 and newer only) — through @hono/node-server, with keep-alive, a configurable
// request timeout (0 = none, so long uploads are not cut off at Node's default 300 s; stalled
// bodies are cut by the body idle timeout instead, and the header phase by headersTimeout), an
// optional connection cap, a certificate swap that leaves open connections alone, and a close()
// that drains in-flight requests before dropping connections. A listener binds a TCP address or
// a unix socket (file-backed, with its permissions; or Linux's abstract `@name`), and serves
// the S3 API, the admin API or both (versitygw's --admin-port splits them). A socket file with a
// requested mode (--socket-perm) is created no wider than that mode, under a narrowed umask.

import { chmod, lstat, unlink } from 'node:fs/promises';
import type { Server } from 'node:http';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { isMainThread } from 'node:worker_threads';
import { createAdaptorServer } from '@hono/node-server';
import { answerClientErrors } from './client-error.js';
import type { InFlightRequests } from './in-flight.js';
import type { LimitCounters } from './limit-stats.js';

/** PEM certificate chain and private key of an HTTPS listener. */
export interface TlsCredentials {
  readonly cert: string | Buffer;
  readonly key: string | Buffer;
}

/** Which API a listener serves: both (the default), only S3, or only the admin API. */
export type ListenerRole = 'all' | 's3' | 'admin';

export interface ListenOptions {
  port: number;
  host?: string;
  /**
   * Listen on this unix socket instead of host:port: a file path, or `@name` for Linux's
   * abstract namespace. A stale socket file at the path is replaced; any other file is an error.
   */
  socketPath?: string;
  /**
   * File-backed sockets: the socket's mode (versitygw's --socket-perm). It is bound under a umask
   * that leaves no wider bits, then chmod'ed to exactly this mode.
   */
  socketMode?: number;
  /** Serve HTTPS with this certificate and key instead of plain HTTP. */
  tls?: TlsCredentials;
  /** Default 'all'. */
  serves?: ListenerRole;
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
  /** The requests running now: cut (and counted) when the grace period ends, then awaited. */
  inFlight?: InFlightRequests;
}

type FetchHandler = Parameters<typeof createAdaptorServer>[0]['fetch'];

const HEADERS_TIMEOUT_MS = 60_000;
const KEEP_ALIVE_TIMEOUT_MS = 65_000;
/** TLS 1.0 and 1.1 are refused in the handshake (the S3 SDKs have required 1.2 for years). */
const MIN_TLS_VERSION = 'TLSv1.2';
/**
 * The host of the request URL when a request names none. HTTP/1.0 makes `Host` optional, and
 * load balancers' default health checks (HAProxy's `option httpchk`) send exactly that;
 * without a fallback @hono/node-server answers them 400 before the app sees them. Only the URL
 * gets this name: signatures, virtual-host routing and POST object read the request's own
 * `Host` header, so a request without one is still refused wherever a host is needed. (Node
 * itself keeps answering 400 to an HTTP/1.1 request without `Host`, as RFC 9112 asks.)
 */
const HOST_WHEN_ABSENT = 'localhost';

/** A socket file left by an earlier process is removed; anything else at the path is kept (EADDRINUSE follows). */
async function clearStaleSocket(path: string): Promise<void> {
  if (path.startsWith('@')) return;
  const st = await lstat(path).catch(() => undefined);
  if (st?.isSocket()) await unlink(path);
}

export async function listen(
  fetch: FetchHandler,
  opts: ListenOptions,
  settings: ServerSettings,
): Promise<RunningGateway> {
  if (opts.socketPath !== undefined) await clearStaleSocket(opts.socketPath);
  const fileSocket = opts.socketPath !== undefined && !opts.socketPath.startsWith('@');
  const mode = fileSocket ? opts.socketMode : undefined;
  // bind(2) creates the socket file: under a umask that masks every bit the mode leaves out, so
  // it is never wider than asked for, not even between bind and chmod (which then only adds the
  // bits the process's own umask took away).
  const running = await withUmaskFor(mode, () => bind(fetch, opts, settings));
  if (mode !== undefined && opts.socketPath !== undefined) {
    try {
      await chmod(opts.socketPath, mode);
    } catch (err) {
      await running.close();
      throw err;
    }
  }
  return running;
}

/**
 * Runs `start` (which must create its files synchronously: server.listen binds a unix socket
 * before it returns) under the process's umask plus the bits `mode` leaves out, then restores
 * the umask. The umask is process-wide, so only ever narrowed here: a file something else
 * creates meanwhile gets fewer permissions, never more. In a worker thread, where the umask
 * cannot be set, the socket is bound as it would be without a mode and chmod alone narrows it.
 */
function withUmaskFor<T>(mode: number | undefined, start: () => T): T {
  if (mode === undefined || !isMainThread) return start();
  const previous = process.umask(0o777);
  try {
    process.umask(previous | (~mode & 0o777));
    return start();
  } finally {
    process.umask(previous);
  }
}

function bind(fetch: FetchHandler, opts: ListenOptions, settings: ServerSettings): Promise<RunningGateway> {
  const host = opts.host ?? '127.0.0.1';
  const requestTimeout = settings.requestTimeoutMs;
  // Node requires headersTimeout <= requestTimeout when the latter is set.
  const headersTimeout =
    requestTimeout > 0 ? Math.min(HEADERS_TIMEOUT_MS, requestTimeout) : HEADERS_TIMEOUT_MS;
  const http = { keepAlive: true, keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS, requestTimeout, headersTimeout };
  const { tls } = opts;
  const serves = opts.serves ?? 'all';
  // The role rides along with Node's request and response (GatewayBindings) for the router.
  const tagged: FetchHandler = (request, env) =>
    fetch(request, { ...(env as object), listener: serves } as unknown as typeof env);
  return new Promise((resolve, reject) => {
    const base = { fetch: tagged, hostname: HOST_WHEN_ABSENT, overrideGlobalObjects: false };
    const server = (
      tls
        ? createAdaptorServer({
            ...base,
            createServer: createHttpsServer,
            serverOptions: { ...http, cert: tls.cert, key: tls.key, minVersion: MIN_TLS_VERSION },
          })
        : createAdaptorServer({ ...base, serverOptions: http })
    ) as Server | HttpsServer;
    server.once('listening', () => {
      server.off('error', reject);
      const address = server.address();
      const info: AddressInfo =
        typeof address === 'string' || address === null
          ? { address: opts.socketPath ?? '', port: 0, family: 'unix' }
          : address;
      const urlHost = info.family === 'IPv6' ? `[${info.address}]` : info.address;
      resolve({
        host: info.address,
        port: info.port,
        url:
          opts.socketPath === undefined
            ? `${tls ? 'https' : 'http'}://${urlHost}:${info.port}`
            : `${tls ? 'https' : 'http'}+unix://${encodeURIComponent(opts.socketPath)}`,
        server,
        setTlsCredentials: (next) => {
          if (!tls) throw new Error('setTlsCredentials: this listener serves plain HTTP');
          // Builds the new context first: a bad pair throws here and the old one stays in use.
          (server as HttpsServer).setSecureContext({ cert: next.cert, key: next.key });
        },
        close: () => closeServer(server, settings),
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
    answerClientErrors(server);
    server.once('error', reject);
    // Abstract-namespace names are given to Node with a leading NUL instead of '@'.
    const path = opts.socketPath?.startsWith('@') ? `\0${opts.socketPath.slice(1)}` : opts.socketPath;
    if (path !== undefined) server.listen(path);
    else server.listen(opts.port, host);
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

async function closeServer(server: Server | HttpsServer, settings: ServerSettings): Promise<void> {
  if (!server.listening) return;
  const graceMs = settings.closeGraceMs;
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  // Connections that finish their request while we wait become idle: close those as they appear.
  const sweep = setInterval(() => server.closeIdleConnections(), 50);
  const deadline = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), graceMs).unref());
  server.closeIdleConnections();
  const outcome = await Promise.race([closed.then(() => 'closed' as const), deadline]);
  clearInterval(sweep);
  if (outcome === 'timeout') {
    // The deadline: what still runs is marked cut (status 499 in its access-log line) and
    // counted, its connection dropped, and its handler given a bounded time to unwind (a cut
    // upload discards its temp file on its error path).
    settings.counters.cutAtShutdown += settings.inFlight?.cutAll() ?? 0;
    server.closeAllConnections();
    await closed;
    await settings.inFlight?.settled();
  }
}
