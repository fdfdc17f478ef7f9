// GetObject and HeadObject. HEAD is answered here too (hono routes HEAD to the GET handler):
// same headers, the real Content-Length, no body. GET bodies are streamed to the Node response
// and never buffered.
import type { Readable } from 'node:stream';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import {
  checkConditions,
  type GetObjectInput,
  type HeadObjectOutput,
  isS3Error,
  isWholeBody,
  parseRange,
  S3Error,
  WHOLE_BYTES,
} from '@vgwrdma/backend-contract';
import type { Context } from 'hono';
import type { GatewayEnv } from '../env.js';
import { header, httpDate, intParam, parseConditions, queryValue } from '../http/headers.js';
import { sendBody } from '../http/send-body.js';
import type { Handler, S3Request } from '../routes/types.js';
import { objectResponseHead, responseOverrides } from './object-headers.js';
import { emptyResponse, type HeaderMap, opt } from './respond.js';

function getInput(req: S3Request): GetObjectInput {
  const partNumber = intParam(req.query, 'partNumber', { min: 1 });
  const rangeHeader = header(req.headers, 'range');
  if (partNumber !== undefined && rangeHeader !== undefined) {
    throw new S3Error('InvalidRequest', 'Cannot specify both Range header and partNumber query parameter');
  }
  const range = parseRange(rangeHeader);
  const conditions = parseConditions(req.headers);
  const checksumMode = header(req.headers, 'x-amz-checksum-mode')?.toUpperCase() === 'ENABLED';
  return {
    bucket: req.bucket,
    key: req.key,
    ...opt('versionId', queryValue(req.query, 'versionId')),
    ...opt('range', range),
    ...opt('partNumber', partNumber),
    ...opt('conditions', conditions),
    ...(checksumMode ? { checksumMode } : {}),
  };
}

/**
 * Backends are asked to honour the conditions; checking again here is cheap and keeps the
 * answer right for a backend that does not. A 304 keeps the validators, as HTTP requires.
 */
function answerConditions(input: GetObjectInput, info: HeadObjectOutput): Response | undefined {
  try {
    checkConditions(input.conditions, info);
    return undefined;
  } catch (err) {
    if (isS3Error(err) && err.code === 'NotModified') {
      return emptyResponse(304, { etag: info.etag, 'last-modified': httpDate(info.lastModified) });
    }
    throw err;
  }
}

/**
 * A backend that evaluates the conditions itself throws NotModified without the validators
 * HTTP wants on a 304; fetch them with a plain HEAD.
 */
async function withValidators<T>(
  req: S3Request,
  input: GetObjectInput,
  call: () => Promise<T>,
): Promise<T | Response> {
  try {
    return await call();
  } catch (err) {
    if (!(isS3Error(err) && err.code === 'NotModified')) throw err;
    const { conditions: _ignored, range: _r, partNumber: _p, ...plain } = input;
    const info = await req.backend.headObject(req.ctx, plain);
    return emptyResponse(304, { etag: info.etag, 'last-modified': httpDate(info.lastModified) });
  }
}

export const getObject: Handler = async (c, req) => {
  const input = getInput(req);
  const overrides = responseOverrides(req.query);
  if (overrides && req.auth.anonymous) {
    throw new S3Error(
      'InvalidRequest',
      'Request specific response headers cannot be used for anonymous GET requests.',
    );
  }
  const shape = { checksumMode: input.checksumMode === true, overrides };

  if (req.method === 'HEAD') {
    const info = await withValidators(req, input, () => req.backend.headObject(req.ctx, input));
    if (info instanceof Response) return info;
    const notModified = answerConditions(input, info);
    if (notModified) return notModified;
    const { status, headers } = objectResponseHead(info, shape);
    return new Response(null, { status, headers: headers as Record<string, string> });
  }

  const out = await withValidators(req, input, () => req.backend.getObject(req.ctx, input));
  if (out instanceof Response) return out;
  let head: ReturnType<typeof objectResponseHead>;
  try {
    const notModified = answerConditions(input, out);
    if (notModified) {
      out.body.destroy();
      return notModified;
    }
    head = objectResponseHead(out, shape);
  } catch (err) {
    out.body.destroy();
    throw err;
  }
  // Reply headers from a decorator go last: CuServer, having moved the bytes by RDMA, sends an
  // empty body and says so with its own content-length.
  return streamBody(c, req, out.body, head.status, { ...head.headers, ...out.responseHeaders });
};

/**
 * Writes the object straight to the Node response: measured faster than handing hono a web
 * ReadableStream (see README, "GET streaming"). A failure after the headers went out can only
 * be reported by cutting the connection, which tells the client the body is short. A body the
 * backend read whole (WHOLE_BYTES: posix objects up to 1 MiB) goes out with the headers in one
 * write, without the stream machinery.
 */
async function streamBody(
  c: Context<GatewayEnv>,
  req: S3Request,
  body: Readable,
  status: number,
  headers: HeaderMap,
): Promise<Response> {
  const outgoing = c.env.outgoing;
  outgoing.writeHead(status, headers as Record<string, string>);
  if (isWholeBody(body)) {
    // a small object already in memory: headers and bytes leave in one write
    outgoing.end(body[WHOLE_BYTES]);
    return RESPONSE_ALREADY_SENT;
  }
  try {
    await sendBody(body, outgoing);
  } catch (err) {
    if (!outgoing.destroyed) outgoing.destroy();
    req.logger.warn({ err, requestId: req.ctx.requestId }, 'GET body stream ended early');
  }
  return RESPONSE_ALREADY_SENT;
}
