// Whitespace keep-alive for slow XML answers (CompleteMultipartUpload), as S3 does it: when the
// work has not finished after `afterMs`, a 200 with the XML declaration goes out at once and a
// space follows every `everyMs`, so proxies and clients do not time the request out; the result
// document — or an <Error> document, which SDKs check for in 200 answers — ends the body.
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import type { Context } from 'hono';
import type { GatewayEnv } from '../env.js';
import { toS3Error } from '../middleware/error-handler.js';
import type { S3Request } from '../routes/types.js';
import { XML_DECLARATION } from '../xml/document.js';
import { renderError } from '../xml/render-error.js';
import { type HeaderMap, xmlResponse } from './respond.js';

interface KeepAliveTiming {
  afterMs: number;
  everyMs: number;
}

/** Mutable so tests can shorten it; the defaults stay well inside common 30–60 s idle timeouts. */
export const COMPLETE_KEEPALIVE: KeepAliveTiming = { afterMs: 10_000, everyMs: 5_000 };

interface XmlResult {
  /** A complete document, declaration included. */
  body: string;
  /** Sent only when the answer is not streamed (headers go out before the result is known). */
  headers?: HeaderMap;
}

export async function xmlWithKeepAlive(
  c: Context<GatewayEnv>,
  req: S3Request,
  work: Promise<XmlResult>,
  timing: KeepAliveTiming = COMPLETE_KEEPALIVE,
): Promise<Response> {
  let timer: NodeJS.Timeout | undefined;
  const slow = new Promise<'slow'>((resolve) => {
    timer = setTimeout(() => resolve('slow'), timing.afterMs);
  });
  const first = await Promise.race([work.then(settled, settled), slow]);
  clearTimeout(timer);
  if (first === 'done') {
    const out = await work;
    return xmlResponse(out.body, 200, out.headers);
  }

  const outgoing = c.env.outgoing;
  outgoing.writeHead(200, { 'content-type': 'application/xml' });
  outgoing.write(XML_DECLARATION);
  const tick = setInterval(() => outgoing.write(' '), timing.everyMs);
  try {
    const out = await work;
    outgoing.end(withoutDeclaration(out.body));
  } catch (err) {
    const { error, internal } = toS3Error(err);
    if (internal) req.logger.error({ err, requestId: req.ctx.requestId }, 'internal error');
    const doc = renderError({
      code: error.code,
      message: error.message,
      resource: `/${req.bucket}/${req.key}`,
      requestId: req.ctx.requestId,
      detail: error.detail,
    });
    outgoing.end(withoutDeclaration(doc));
  } finally {
    clearInterval(tick);
  }
  return RESPONSE_ALREADY_SENT;
}

function settled(): 'done' {
  return 'done';
}

function withoutDeclaration(doc: string): string {
  return doc.startsWith(XML_DECLARATION) ? doc.slice(XML_DECLARATION.length) : doc;
}
