// Response helpers shared by the handlers, and the bounded reader for XML/JSON request bodies
// (which, unlike object bodies, are small and needed whole).
import { createHash } from 'node:crypto';
import { getChecksum, S3Error } from '@vgwrdma/backend-contract';
import { checksumRequest, parseChecksumHeaders, parseContentMD5 } from '../http/checksum-headers.js';
import type { S3Request } from '../routes/types.js';

export type HeaderMap = Record<string, string | undefined>;

function clean(headers: HeaderMap): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) if (v !== undefined) out[k] = v;
  return out;
}

export function xmlResponse(body: string, status = 200, headers: HeaderMap = {}): Response {
  return new Response(body, { status, headers: { 'content-type': 'application/xml', ...clean(headers) } });
}

/** A body-less answer; 200s say content-length 0 so keep-alive clients need not wait. */
export function emptyResponse(status = 200, headers: HeaderMap = {}): Response {
  const h = clean(headers);
  if (status !== 204 && status !== 304) h['content-length'] = '0';
  return new Response(null, { status, headers: h });
}

/** Largest XML/JSON request body read into memory (DeleteObjects with 1000 long keys fits). */
const MAX_SMALL_BODY = 4 * 1024 * 1024;

export interface BodyTextOptions {
  /** Largest body read, MaxMessageLengthExceeded beyond. */
  limit?: number;
  /**
   * The x-amz-checksum-* headers describe the object, not this body (CompleteMultipartUpload):
   * only Content-MD5 is checked here, the handler passes the checksum to the backend.
   */
  checksumDescribesObject?: boolean;
}

/**
 * Reads the request body as text, bounded, and checks Content-MD5 or x-amz-checksum-* when
 * the client sent one (BadDigest on mismatch): no backend sees these bodies' bytes.
 */
export async function readBodyText(req: S3Request, options: BodyTextOptions = {}): Promise<string> {
  const body = req.body;
  if (!body) return '';
  const limit = options.limit ?? MAX_SMALL_BODY;
  const md5 = parseContentMD5(req.headers);
  const checksum = options.checksumDescribesObject
    ? undefined
    : checksumRequest(parseChecksumHeaders(req.headers), (n) => body.trailer(n));
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body.stream) {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    size += buf.length;
    if (size > limit) {
      body.stream.destroy();
      throw new S3Error('MaxMessageLengthExceeded');
    }
    chunks.push(buf);
  }
  const data = Buffer.concat(chunks);
  if (md5 !== undefined && createHash('md5').update(data).digest('base64') !== md5)
    throw new S3Error('BadDigest');
  if (checksum) {
    const hasher = getChecksum(checksum.algorithm).create();
    hasher.update(data);
    const expected = checksum.expected?.();
    if (expected !== undefined && hasher.digest() !== expected) {
      throw S3Error.custom(
        'BadDigest',
        `The ${checksum.algorithm} you specified did not match the calculated checksum.`,
      );
    }
  }
  return data.toString('utf8');
}

/** Query value or undefined; spreads cleanly into exactOptionalPropertyTypes inputs via `opt`. */
export function opt<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}
