// The per-request pipeline behind the global middleware: parse the raw target, validate names,
// match the route table, authenticate, enforce read-only/admin, frame the body, build the
// backend's request context, and call the row's handler. Everything here happens once per
// request; handlers receive the result as an S3Request.
import type { Account, Backend, RequestContext } from '@vgwrdma/s3-backend';
import { S3Error } from '@vgwrdma/s3-backend';
import type { Context } from 'hono';
import { authenticate, type CredentialStore } from '../auth/index.js';
import { decodeBody } from '../body/index.js';
import type { GatewayEnv } from '../env.js';
import { assertValidBucketName } from '../http/bucket-name.js';
import { parseRequestTarget, virtualHostBucket } from '../http/request-target.js';
import type { Logger } from '../logger.js';
import { createMatcher } from './match.js';
import type { RouteMethod, RouteRow, RouteTarget, S3Request } from './types.js';

export interface RouterOptions {
  backend: Backend;
  credentials: CredentialStore;
  region: string;
  readonly: boolean;
  anonymousAccess: boolean;
  maxClockSkewMs?: number;
  /** Virtual-host–style requests: `bucket.<domain>`. */
  virtualHostDomain?: string;
  logger: Logger;
}

/** An AbortSignal that fires when the client goes away before the response is complete. */
function disconnectSignal(c: Context<GatewayEnv>): AbortSignal {
  const ac = new AbortController();
  const outgoing = c.env.outgoing;
  outgoing.once('close', () => {
    if (!outgoing.writableFinished) ac.abort(new S3Error('RequestTimeout'));
  });
  return ac.signal;
}

export function createRouter(rows: readonly RouteRow[], opts: RouterOptions) {
  const matcher = createMatcher(rows);
  return async (c: Context<GatewayEnv>): Promise<Response> => {
    const incoming = c.env.incoming;
    const method = (incoming.method ?? 'GET').toUpperCase();
    const hostBucket = virtualHostBucket(incoming.headers.host, opts.virtualHostDomain);
    const target = parseRequestTarget(incoming.url ?? '/', hostBucket);
    if (target.bucket !== undefined) assertValidBucketName(target.bucket);
    const kind: RouteTarget =
      target.bucket === undefined ? 'service' : target.key === undefined ? 'bucket' : 'object';
    const row = matcher.match(method, kind, target.query, incoming.headers);

    const authOpts =
      opts.maxClockSkewMs === undefined
        ? { region: opts.region }
        : { region: opts.region, maxSkewMs: opts.maxClockSkewMs };
    const auth = await authenticate(
      { method, rawPath: target.rawPath, rawQuery: target.rawQuery, headers: incoming.headers },
      opts.credentials,
      authOpts,
    );
    if (auth.anonymous && !opts.anonymousAccess) throw new S3Error('AccessDenied');
    c.set('auth', auth);
    c.set('account', auth.account);
    if (row.flags?.write && opts.readonly) throw new S3Error('AccessDenied');
    if (row.flags?.admin && auth.account.role !== 'admin') throw new S3Error('XAdminAccessDenied');

    const body = row.flags?.body ? decodeBody(incoming, incoming.headers, auth.payload) : undefined;
    const req: S3Request = {
      method: method as RouteMethod,
      bucket: target.bucket ?? '',
      key: target.key ?? '',
      query: target.query,
      headers: incoming.headers,
      ctx: requestContext(c, auth.account),
      account: auth.account,
      auth,
      body,
      backend: opts.backend,
      region: opts.region,
      logger: opts.logger,
    };
    return row.handler(c, req);
  };
}

function requestContext(c: Context<GatewayEnv>, account: Account): RequestContext {
  const base = { account, requestId: c.get('requestId'), signal: disconnectSignal(c) };
  const rdma = c.get('rdma');
  return rdma ? { ...base, rdma } : base;
}
