// The authenticate step: SigV4 or SigV2, in the Authorization header or a presigned query, over
// the raw target as sent. Hands on the outcome (`auth`: account, signing, payload framing) and
// the account; an unsigned request is the anonymous account (authorize decides what it may do).
import type { MiddlewareHandler } from 'hono';
import { authenticate } from '../auth/index.js';
import type { GatewayEnv } from '../env.js';
import type { PipelineOptions } from './pipeline-options.js';

export function authenticateStep(opts: PipelineOptions): MiddlewareHandler<GatewayEnv> {
  const authOpts = {
    region: opts.region,
    ...(opts.maxClockSkewMs === undefined ? {} : { maxSkewMs: opts.maxClockSkewMs }),
    ...(opts.signedHeaderPrefixes === undefined ? {} : { signedHeaderPrefixes: opts.signedHeaderPrefixes }),
  };
  return async (c, next) => {
    const target = c.get('target');
    const auth = await authenticate(
      {
        method: target.method,
        rawPath: target.rawPath,
        rawQuery: target.rawQuery,
        headers: c.env.incoming.headers,
        ...(target.hostBucket === undefined ? {} : { virtualHostBucket: target.hostBucket }),
      },
      opts.credentials,
      authOpts,
    );
    c.set('auth', auth);
    c.set('account', auth.account);
    return next();
  };
}
