// The target step: reads the request line and Host into a validated target (a refused bucket
// name never reaches the access log), matches the route table — or the admin row for
// `PATCH /<admin operation>` — refuses an operation on the listener that does not serve its API,
// and puts the web console's CORS headers on every answer from here on, refusals included.
import { S3Error } from '@vgwrdma/backend-contract';
import type { MiddlewareHandler } from 'hono';
import { isConsoleOrigin } from '../cors/console-rule.js';
import { actualCorsHeaders } from '../cors/index.js';
import type { GatewayEnv } from '../env.js';
import { assertValidBucketName } from '../http/bucket-name.js';
import { header } from '../http/headers.js';
import { parseRequestTarget, virtualHostBucket } from '../http/request-target.js';
import { createMatcher } from '../routes/match.js';
import type { RouteRow, RouteTarget } from '../routes/types.js';
import type { ListenerRole } from '../server/listen.js';
import type { PipelineOptions } from './pipeline-options.js';

export function targetStep(rows: readonly RouteRow[], opts: PipelineOptions): MiddlewareHandler<GatewayEnv> {
  const matcher = createMatcher(rows);
  // A Map of the handlers' own names: the operation comes from the path, and `PATCH /constructor`
  // must not find Object.prototype.constructor.
  const adminHandlers = new Map(Object.entries(opts.adminHandlers ?? {}));
  return async (c, next) => {
    const incoming = c.env.incoming;
    const method = (incoming.method ?? 'GET').toUpperCase();
    // The console reads every answer, bad names and refusals before authentication included.
    if (
      opts.consoleCors !== undefined &&
      isConsoleOrigin(opts.consoleCors, header(incoming.headers, 'origin'))
    )
      for (const [name, value] of Object.entries(
        actualCorsHeaders([opts.consoleCors], incoming.headers, method),
      ))
        c.env.outgoing.setHeader(name, value);
    const hostBucket = virtualHostBucket(incoming.headers.host, opts.virtualHostDomain);
    const parsed = parseRequestTarget(incoming.url ?? '/', hostBucket);
    // Validated before it is recorded: the access log never carries a name the gateway refused.
    if (parsed.bucket !== undefined) assertValidBucketName(parsed.bucket);
    if (parsed.bucket !== undefined) c.set('bucket', parsed.bucket);
    if (parsed.key !== undefined) c.set('key', parsed.key);
    const kind: RouteTarget =
      parsed.bucket === undefined ? 'service' : parsed.key === undefined ? 'bucket' : 'object';
    c.set('target', { ...parsed, method, kind, ...(hostBucket === undefined ? {} : { hostBucket }) });
    // Every OPTIONS is a CORS preflight (the next step answers it): no route, no listener rule.
    if (method === 'OPTIONS') return next();
    const serves = c.env.listener ?? 'all';
    const adminHandler =
      method === 'PATCH' && kind === 'bucket' && !parsed.query.has('change-bucket-owner')
        ? adminHandlers.get(parsed.bucket ?? '')
        : undefined;
    // An admin operation sent to the S3 listener of a gateway with --admin-port.
    if (adminHandler) refuseOnListener(serves, true);
    const row: RouteRow = adminHandler
      ? {
          method: 'PATCH',
          target: 'service',
          operation: 'admin',
          action: 'admin:Api',
          handler: adminHandler,
          flags: parsed.bucket?.startsWith('list-') ? ADMIN_READ : ADMIN_WRITE,
        }
      : matcher.match(method, kind, parsed.query, incoming.headers);
    c.set('route', row);
    c.set('operation', adminHandler ? `admin:${parsed.bucket}` : row.operation);
    // `PATCH /list-users` names an operation, not a bucket.
    if (adminHandler) c.set('bucket', '');
    refuseOnListener(serves, row.flags?.admin === true);
    return next();
  };
}

/**
 * With --admin-port the admin API has its own listener: the S3 listener refuses admin
 * operations and the admin listener everything else, so neither port serves the other's API.
 */
function refuseOnListener(serves: ListenerRole, admin: boolean): void {
  if (serves === 's3' && admin)
    throw S3Error.custom(
      'NotImplemented',
      'The admin API is served on the admin listener (--admin-port), not here',
    );
  if (serves === 'admin' && !admin)
    throw S3Error.custom('NotImplemented', 'This listener serves only the admin API (--admin-port)');
}

const ADMIN_READ = { admin: true, body: 'xml' } as const;
const ADMIN_WRITE = { admin: true, body: 'xml', write: true } as const;
