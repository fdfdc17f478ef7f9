// The handler step: the S3Request built from what the steps before handed on, given to the route
// row's handler. Bucket writes (ACL, policy, ownership, CORS, owner, delete) drop the bucket's
// cached access state afterwards, whatever the handler's outcome.
import type { Handler as HonoHandler } from 'hono';
import type { GatewayEnv } from '../env.js';
import type { FormPrincipal, RouteMethod, S3Request } from '../routes/types.js';
import { checkAccess } from './authorize-step.js';
import type { PipelineOptions } from './pipeline-options.js';

export function handlerStep(opts: PipelineOptions): HonoHandler<GatewayEnv> {
  return async (c) => {
    const row = c.get('route');
    const target = c.get('target');
    const auth = c.get('auth');
    const outcome = c.get('authz');
    const incoming = c.env.incoming;
    const req: S3Request = {
      method: target.method as RouteMethod,
      bucket: target.bucket ?? '',
      key: target.key ?? '',
      query: target.query,
      headers: incoming.headers,
      ctx: c.get('requestContext'),
      account: auth.account,
      auth,
      body: c.get('body'),
      backend: c.get('backend'),
      accounts: opts.credentials,
      ...(outcome.state ? { bucketState: outcome.state } : {}),
      region: opts.region,
      logger: opts.logger,
      limits: opts.limits,
      ...(opts.events && target.bucket !== undefined
        ? {
            events: opts.events.sink(
              {
                bucket: target.bucket,
                bucketOwner: outcome.state?.acl.Owner ?? '',
                principal: auth.anonymous ? 'anonymous' : auth.account.access,
                sourceIp: incoming.socket.remoteAddress ?? '',
                requestId: c.get('requestId') ?? '',
                region: opts.region,
              },
              auth.account,
            ),
          }
        : {}),
      ...(row.flags?.form
        ? {
            form: {
              credentials: opts.credentials,
              authorize: async (who: FormPrincipal) => void (await checkAccess(c, opts, who)),
              virtualHost: target.hostBucket !== undefined,
              idleTimeoutMs: opts.bodyIdleTimeoutMs,
              ...(opts.onBodyIdleTimeout ? { onIdleTimeout: opts.onBodyIdleTimeout } : {}),
            },
          }
        : {}),
    };
    try {
      return await row.handler(c, req);
    } finally {
      if (row.flags?.write && target.kind === 'bucket' && target.bucket !== undefined)
        opts.authorizer.cache.invalidate(target.bucket);
    }
  };
}
