// The one place errors become responses: an S3Error keeps its code, status and detail; anything
// else is logged (its URL redacted) and answered as InternalError. HEAD and 304 answers carry no body. When the
// client is still sending a body we did not read, the answer closes the connection, so the
// unread bytes are never parsed as the next request.

import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import { isS3Error, S3Error } from '@vgwrdma/backend-contract';
import type { Context, ErrorHandler } from 'hono';
import type { GatewayEnv } from '../env.js';
import type { Logger } from '../logger.js';
import { redactUrl } from '../observe/redact-url.js';
import { renderError } from '../xml/render-error.js';

export function toS3Error(err: unknown): { error: S3Error; internal: boolean } {
  if (isS3Error(err)) return { error: err, internal: false };
  return { error: new S3Error('InternalError', undefined, { cause: err }), internal: true };
}

/** True when the request body has not been read to its end (the socket holds unread bytes). */
function bodyPending(c: Context<GatewayEnv>): boolean {
  const incoming = c.env?.incoming;
  if (!incoming) return false;
  const method = incoming.method ?? 'GET';
  if (method === 'GET' || method === 'HEAD') return false;
  return !incoming.readableEnded;
}

export function errorHandler(logger: Logger): ErrorHandler<GatewayEnv> {
  return (err, c) => {
    const { error, internal } = toS3Error(err);
    const requestId = c.get('requestId') ?? '';
    c.set('errorCode', error.code);
    if (internal) logger.error({ err, requestId, method: c.req.method, url: loggedUrl(c) }, 'internal error');
    else if (error.status >= 500)
      logger.warn({ code: error.code, requestId, cause: error.cause }, error.message);

    const headers: Record<string, string> = { ...error.headers };
    if (bodyPending(c)) headers.connection = 'close';
    const outgoing = c.env?.outgoing;
    // Headers already sent (a streamed GET that failed mid-way): nothing can be said any more.
    if (outgoing?.headersSent) {
      outgoing.destroy();
      return RESPONSE_ALREADY_SENT;
    }
    if (error.status === 304 || c.req.method === 'HEAD') {
      return new Response(null, { status: error.status, headers });
    }
    const body = renderError({
      code: error.code,
      message: error.message,
      resource: resourceOf(c),
      requestId,
      detail: error.detail,
    });
    headers['content-type'] = 'application/xml';
    return new Response(body, { status: error.status, headers });
  };
}

/** The request target as a log may keep it: no signature or session token (redact-url.ts). */
function loggedUrl(c: Context<GatewayEnv>): string | undefined {
  const url = c.env?.incoming?.url;
  return url === undefined ? undefined : redactUrl(url);
}

/** The decoded request path, as S3 reports it in <Resource>. */
function resourceOf(c: Context<GatewayEnv>): string {
  const raw = c.env?.incoming?.url ?? c.req.path;
  const path = raw.split('?', 1)[0] ?? '/';
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}
