// The body step: the request is allowed (or, for forms, authenticated), so now the client may
// send the body it held back (100-continue), and routes with a body flag get the decoder
// (aws-chunked with its signatures and trailers, or plain) under the idle timeout.
import type { MiddlewareHandler } from 'hono';
import { decodeBody } from '../body/index.js';
import type { GatewayEnv } from '../env.js';
import { header } from '../http/headers.js';
import type { PipelineOptions } from './pipeline-options.js';

export function bodyStep(opts: PipelineOptions): MiddlewareHandler<GatewayEnv> {
  return async (c, next) => {
    const incoming = c.env.incoming;
    if (header(incoming.headers, 'expect')?.toLowerCase() === '100-continue' && !c.env.outgoing.headersSent)
      c.env.outgoing.writeContinue();
    if (c.get('route').flags?.body)
      c.set(
        'body',
        decodeBody(incoming, incoming.headers, c.get('auth').payload, {
          idleTimeoutMs: opts.bodyIdleTimeoutMs,
          ...(opts.onBodyIdleTimeout ? { onIdleTimeout: opts.onBodyIdleTimeout } : {}),
        }),
      );
    return next();
  };
}
