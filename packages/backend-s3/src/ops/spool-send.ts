// Sending a spooled stretch upstream: its content as one request body with an exact length, and
// the checksum computed here as a header field (never an aws-chunked trailer).
import type { RequestContext } from '@vgwrdma/backend-contract';
import { checksumFields } from '../convert.js';
import type { Spool } from '../spool/spool.js';
import { call, type Upstream } from '../upstream.js';

/** The checksum header field sent upstream for a value computed here (none with disableChecksum). */
export function upstreamChecksum(up: Upstream, algorithm: string | undefined, value: string | undefined) {
  if (up.options.disableChecksum === true || algorithm === undefined || value === undefined) return {};
  return checksumFields({ [algorithm]: value });
}

/** Sends a spool's content as one request body ('upload' scope: a bare 404 is the upload's). */
export function sendSpool<T>(
  ctx: RequestContext,
  spool: Spool,
  send: (body: ReturnType<Spool['body']>, o: { abortSignal: AbortSignal }) => Promise<T>,
  scope: 'object' | 'upload' = 'object',
): Promise<T> {
  return call(ctx, scope, (o) => send(spool.body(), o));
}
