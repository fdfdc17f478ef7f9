// The per-request metrics hook: notes when the status line is written (first byte), and when the
// Node response closes — finished or cut — builds one RequestObservation from what the pipeline's
// steps and the error handler left in the context, plus each plugin's own observation fields, and
// hands it to every observer. Without observers it does nothing (the limit counters are kept by
// the request-limit middleware and the listener).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { TLSSocket } from 'node:tls';
import type { Context, MiddlewareHandler } from 'hono';
import type { GatewayEnv } from '../env.js';
import { onResponseClose } from '../http/response-close.js';
import type { GatewayPlugin } from '../plugins/index.js';
import { wasCutAtShutdown } from '../server/in-flight.js';
import { numberHeader, objectSizeOf } from './object-size.js';
import { redactUrl } from './redact-url.js';
import type { RequestObservation, RequestObserver } from './request-observation.js';
import { signatureKind } from './signature-kind.js';

export function observeMiddleware(
  observers: readonly RequestObserver[],
  plugins: readonly GatewayPlugin[] = [],
): MiddlewareHandler<GatewayEnv> {
  return async (c, next) => {
    const outgoing = c.env?.outgoing;
    if (!outgoing || observers.length === 0) return next();
    const started = performance.now();
    let firstByte: number | undefined;
    const sentBefore = outgoing.socket?.bytesWritten ?? 0;
    // Every status line goes through writeHead (Node's implicit headers call it too).
    const writeHead = outgoing.writeHead;
    outgoing.writeHead = function (this: ServerResponse, ...args: Parameters<ServerResponse['writeHead']>) {
      firstByte ??= performance.now();
      return writeHead.apply(this, args);
    } as ServerResponse['writeHead'];
    const startedAt = Date.now();
    onResponseClose(outgoing, () => {
      const o = observe(c, plugins, started, startedAt, firstByte, sentBefore);
      for (const fn of observers) fn(o);
    });
    await next();
  };
}

function observe(
  c: Context<GatewayEnv>,
  plugins: readonly GatewayPlugin[],
  started: number,
  startedAt: number,
  firstByte: number | undefined,
  sentBefore: number,
): RequestObservation {
  const incoming: IncomingMessage = c.env.incoming;
  const outgoing: ServerResponse = c.env.outgoing;
  const method = incoming.method ?? 'GET';
  const operation = c.get('operation') ?? 'Unknown';
  const completed = outgoing.writableFinished;
  // A request cut at the shutdown deadline: 499 (nginx's "client closed request", here the
  // server), whatever status line it had begun.
  const cutAtShutdown = wasCutAtShutdown(outgoing);
  const status = cutAtShutdown ? 499 : outgoing.statusCode;
  const contentLength = numberHeader(outgoing.getHeader('content-length'));
  const bytesSent = completed
    ? method === 'HEAD' || status === 304
      ? 0
      : (contentLength ?? 0)
    : Math.max(0, (outgoing.socket?.bytesWritten ?? sentBefore) - sentBefore);
  const declared = numberHeader(incoming.headers['content-length']);
  const fromPlugins = pluginObservations(c, plugins);
  const account = c.get('account');
  const url = incoming.url ?? '/';
  const signed = signatureKind(c.get('auth'));
  const tls = incoming.socket instanceof TLSSocket ? incoming.socket : undefined;
  const end = performance.now();
  return {
    requestId: c.get('requestId'),
    startedAt,
    remoteAddress: incoming.socket.remoteAddress,
    method,
    url: redactUrl(url),
    operation,
    bucket: c.get('bucket') ?? '',
    key: c.get('key') ?? '',
    status,
    errorCode: c.get('errorCode'),
    bytesSent,
    bytesReceived: incoming.complete ? (declared ?? 0) : 0,
    objectSize: objectSizeOf(operation, incoming.headers, outgoing, fromPlugins.objectSize),
    userAgent: incoming.headers['user-agent'],
    referer: incoming.headers.referer === undefined ? undefined : redactUrl(incoming.headers.referer),
    host: incoming.headers.host,
    accessKey: account && account.access !== '' ? account.access : undefined,
    signatureVersion: signed?.signatureVersion,
    authType: signed?.authType,
    tlsVersion: tls?.getProtocol() ?? undefined,
    tlsCipher: tls?.getCipher()?.name,
    totalMs: end - started,
    firstByteMs: firstByte === undefined ? undefined : firstByte - started,
    completed,
    ...(cutAtShutdown ? { cut: 'shutdown' as const } : {}),
    ...(fromPlugins.fields ? { plugins: fromPlugins.fields } : {}),
  };
}

/** Each plugin's fields by plugin name (only those that took part), and the payload it moved. */
function pluginObservations(
  c: Context<GatewayEnv>,
  plugins: readonly GatewayPlugin[],
): { fields?: Record<string, unknown>; objectSize?: number } {
  let fields: Record<string, unknown> | undefined;
  let objectSize: number | undefined;
  for (const p of plugins) {
    const seen = p.observe?.(c);
    if (seen === undefined) continue;
    if (seen.fields !== undefined) fields = { ...fields, [p.name]: seen.fields };
    objectSize ??= seen.objectSize;
  }
  return { ...(fields ? { fields } : {}), ...(objectSize === undefined ? {} : { objectSize }) };
}
