// Runs a gateway's hono app on Node's HTTP server through @hono/node-server, with keep-alive,
// a configurable request timeout (0 = none, so long uploads are not cut off at Node's default
// 300 s; stalled bodies are cut by the body idle timeout instead, and the header phase by
// headersTimeout), an optional connection cap, and a close() that drains in-flight requests before dropping connections.

import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import type { LimitCounters } from '../observe/index.js';

export interface ListenOptions {
  port: number;
  host?: string;
}

export interface RunningGateway {
  host: string;
  port: number;
  url: string;
  server: Server;
  /** Stops accepting, waits (bounded) for in-flight requests, closes idle keep-alive sockets. */
  close(): Promise<void>;
}

interface ServerSettings {
  requestTimeoutMs: number;
  /** How long close() waits for in-flight requests before cutting them. */
  closeGraceMs: number;
  /** Connections beyond this many open ones are closed as soon as accepted; 0: no cap. */
  maxConnections: number;
  /** Counts open connections (limitStats().connections). */
  limits?: LimitCounters;
}

type FetchHandler = Parameters<typeof serve>[0]['fetch'];

const HEADERS_TIMEOUT_MS = 60_000;
const KEEP_ALIVE_TIMEOUT_MS = 65_000;

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
  return new Promise((resolve, reject) => {
    const server = serve(
      {
        fetch,
        port: opts.port,
        hostname: host,
        overrideGlobalObjects: false,
        serverOptions: {
          keepAlive: true,
          keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
          requestTimeout,
          headersTimeout,
        },
      },
      (info: AddressInfo) => {
        server.off('error', reject);
        const urlHost = info.family === 'IPv6' ? `[${info.address}]` : info.address;
        resolve({
          host: info.address,
          port: info.port,
          url: `http://${urlHost}:${info.port}`,
          server,
          close: () => closeServer(server, settings.closeGraceMs),
        });
      },
    ) as Server;
    // `Expect: 100-continue`: Node would answer 100 at once; instead the request runs like any
    // other and the router sends the 100 only once the request is authenticated and allowed,
    // so a refused upload gets its 403 before the client sends the body (S3's behaviour).
    server.on('checkContinue', (req, res) => server.emit('request', req, res));
    // Any other Expect value (`Expect: 200`, an empty one): Node would answer 417 by itself; S3
    // ignores the header and serves the request, and so does the gateway (no 100 is sent).
    server.on('checkExpectation', (req, res) => server.emit('request', req, res));
    // Node closes each connection accepted beyond the cap at once (the client sees a reset or
    // EOF before any answer); keep-alive connections count until they close.
    if (settings.maxConnections > 0) server.maxConnections = settings.maxConnections;
    const limits = settings.limits;
    if (limits)
      server.on('connection', (socket) => {
        limits.connections++;
        socket.once('close', () => {
          limits.connections--;
        });
      });
    server.once('error', reject);
  });
}

async function closeServer(server: Server, graceMs: number): Promise<void> {
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
