// The per-request pipeline behind the global middleware: parse the raw target, validate names,
// match the route table, authenticate, enforce read-only/admin, frame the body, build the
// backend's request context, and call the row's handler. Everything here happens once per
// request; handlers receive the result as an S3Request.

import type { Account, Backend, RequestContext, RequestOrigin } from '@vgwrdma/backend-contract';
import { ANONYMOUS, S3Error } from '@vgwrdma/backend-contract';
import type { Context } from 'hono';
import { type AuthResult, authenticate, type CredentialStore } from '../auth/index.js';
import type { Authorizer, AuthzOutcome } from '../authz/index.js';
import { decodeBody } from '../body/index.js';
import { isConsoleOrigin, withConsoleRule } from '../cors/console-rule.js';
import { effectiveCorsRules } from '../cors/default-rule.js';
import { actualCorsHeaders, type CorsRule, preflightResponse } from '../cors/index.js';
import type { GatewayEnv } from '../env.js';
import type { EventNotifier } from '../events/index.js';
import { assertValidBucketName } from '../http/bucket-name.js';
import { header } from '../http/headers.js';
import { parseRequestTarget, virtualHostBucket } from '../http/request-target.js';
import { disconnectSignalOf } from '../http/response-close.js';
import { assertAdminSigning } from '../iam/admin-signing.js';
import type { Logger } from '../logger.js';
import type { ListenerRole } from '../server/listen.js';
import { createMatcher } from './match.js';
import type { RequestLimits } from './request-limits.js';
import type { FormPrincipal, Handler, RouteMethod, RouteRow, RouteTarget, S3Request } from './types.js';

interface RouterOptions {
  backend: Backend;
  credentials: CredentialStore;
  region: string;
  readonly: boolean;
  anonymousAccess: boolean;
  maxClockSkewMs?: number;
  /** Virtual-host–style requests: `bucket.<domain>`. */
  virtualHostDomain?: string;
  logger: Logger;
  /** A body that sends nothing for this long fails with RequestTimeout; 0: no limit. */
  bodyIdleTimeoutMs: number;
  /** Called each time a body is cut by the idle timeout (the limit counters). */
  onBodyIdleTimeout?: () => void;
  /** The ACL/policy step (and the bucket-state cache behind it and CORS). */
  authorizer: Authorizer;
  /** PATCH /<name> admin operations (create-user, ...), admin accounts only. */
  adminHandlers?: Readonly<Record<string, Handler>>;
  /** Bucket event notifications; absent: handlers' events go nowhere. */
  events?: EventNotifier;
  /** --mp-max-parts, --copy-object-threshold. */
  limits: RequestLimits;
  /** --cors-allow-origin: the CORS rule of buckets without a configuration of their own. */
  defaultCors?: CorsRule;
  /** The web console's rule (the app's --webui): its origin only, before any bucket's rules. */
  consoleCors?: CorsRule;
}

/** An AbortSignal that fires when the client goes away before the response is complete. */
function disconnectSignal(c: Context<GatewayEnv>): AbortSignal {
  return disconnectSignalOf(c.env.outgoing, () => new S3Error('RequestTimeout'));
}

export function createRouter(rows: readonly RouteRow[], opts: RouterOptions) {
  const matcher = createMatcher(rows);
  // A Map of the handlers' own names: the operation comes from the path, and `PATCH /constructor`
  // must not find Object.prototype.constructor.
  const adminHandlers = new Map(Object.entries(opts.adminHandlers ?? {}));
  return async (c: Context<GatewayEnv>): Promise<Response> => {
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
    const target = parseRequestTarget(incoming.url ?? '/', hostBucket);
    // Validated before it is recorded: the access log never carries a name the gateway refused.
    if (target.bucket !== undefined) assertValidBucketName(target.bucket);
    if (target.bucket !== undefined) c.set('bucket', target.bucket);
    if (target.key !== undefined) c.set('key', target.key);
    const kind: RouteTarget =
      target.bucket === undefined ? 'service' : target.key === undefined ? 'bucket' : 'object';
    // Every OPTIONS is a CORS preflight: without an Origin it is a bad one (400, as S3 answers,
    // and as the s3-tests suite checks), not an unsupported method.
    const preflight = method === 'OPTIONS';
    if (preflight) {
      // The console's preflights (S3 and admin paths alike) need no bucket lookup.
      if (isConsoleOrigin(opts.consoleCors, header(incoming.headers, 'origin')))
        return preflightResponse(withConsoleRule(undefined, opts.consoleCors), incoming.headers);
      const rules =
        target.bucket === undefined
          ? undefined
          : (await opts.authorizer.cache.get(opts.backend, requestContext(c, ANONYMOUS), target.bucket)).cors;
      return preflightResponse(effectiveCorsRules(rules, opts.defaultCors), incoming.headers);
    }
    const serves = c.env.listener ?? 'all';
    const adminHandler =
      method === 'PATCH' && kind === 'bucket' && !target.query.has('change-bucket-owner')
        ? adminHandlers.get(target.bucket ?? '')
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
          flags: target.bucket?.startsWith('list-') ? ADMIN_READ : ADMIN_WRITE,
        }
      : matcher.match(method, kind, target.query, incoming.headers);
    c.set('operation', adminHandler ? `admin:${target.bucket}` : row.operation);
    // `PATCH /list-users` names an operation, not a bucket.
    if (adminHandler) c.set('bucket', '');
    refuseOnListener(serves, row.flags?.admin === true);

    const authOpts =
      opts.maxClockSkewMs === undefined
        ? { region: opts.region }
        : { region: opts.region, maxSkewMs: opts.maxClockSkewMs };
    const auth = await authenticate(
      {
        method,
        rawPath: target.rawPath,
        rawQuery: target.rawQuery,
        headers: incoming.headers,
        ...(hostBucket === undefined ? {} : { virtualHostBucket: hostBucket }),
      },
      opts.credentials,
      authOpts,
    );
    c.set('auth', auth);
    c.set('account', auth.account);
    if (row.flags?.write && opts.readonly) throw new S3Error('AccessDenied');
    if (row.flags?.admin && (auth.anonymous || auth.account.role !== 'admin'))
      throw new S3Error('XAdminAccessDenied');
    // Admin calls only under header SigV4 over a signed body: nothing of them can be swapped.
    if (row.flags?.admin) assertAdminSigning(auth);
    const ctx = requestContext(c, auth.account, auth);
    const access = (who: FormPrincipal): Promise<AuthzOutcome> =>
      // Legacy open mode (anonymousAccess) serves unsigned requests without the ACL/policy step.
      who.anonymous && opts.anonymousAccess
        ? Promise.resolve({})
        : opts.authorizer.authorize({
            route: row,
            bucket: target.bucket ?? '',
            key: who.key,
            account: who.account,
            anonymous: who.anonymous,
            // A form's signer is the form's, not the request's (s3:authType POST).
            signing: row.flags?.form ? who.signing : auth.signing,
            headers: who.headers,
            query: target.query,
            sourceIp: incoming.socket.remoteAddress,
            secure: (incoming.socket as { encrypted?: boolean }).encrypted === true,
            backend: opts.backend,
            ctx,
          });
    // Set on the Node response so they also reach replies written straight to it (GET bodies)
    // and error replies, refusals included: a browser reads an error only when CORS allows it.
    const setCors = (cors: readonly CorsRule[] | undefined): void => {
      const rules = withConsoleRule(effectiveCorsRules(cors, opts.defaultCors), opts.consoleCors);
      for (const [name, value] of Object.entries(actualCorsHeaders(rules, incoming.headers, method)))
        c.env.outgoing.setHeader(name, value);
    };
    // A form route learns its key and signer from the body: the handler runs the check, and
    // the bucket's state (CORS) is read here so that refusals carry the CORS headers too.
    let outcome: AuthzOutcome;
    try {
      outcome = row.flags?.form
        ? { state: await opts.authorizer.cache.get(opts.backend, ctx, target.bucket ?? '') }
        : await access({
            account: auth.account,
            anonymous: auth.anonymous,
            key: target.key ?? '',
            headers: incoming.headers,
          });
    } catch (err) {
      if (header(incoming.headers, 'origin') !== undefined) {
        const state =
          target.bucket === undefined
            ? undefined
            : await opts.authorizer.cache.get(opts.backend, ctx, target.bucket).catch(() => undefined);
        setCors(state?.cors);
      }
      throw err;
    }

    // Allowed (or, for forms, authenticated): now the client may send the body it held back.
    if (header(incoming.headers, 'expect')?.toLowerCase() === '100-continue' && !c.env.outgoing.headersSent)
      c.env.outgoing.writeContinue();
    const body = row.flags?.body
      ? decodeBody(incoming, incoming.headers, auth.payload, {
          idleTimeoutMs: opts.bodyIdleTimeoutMs,
          ...(opts.onBodyIdleTimeout ? { onIdleTimeout: opts.onBodyIdleTimeout } : {}),
        })
      : undefined;
    const req: S3Request = {
      method: method as RouteMethod,
      bucket: target.bucket ?? '',
      key: target.key ?? '',
      query: target.query,
      headers: incoming.headers,
      ctx,
      account: auth.account,
      auth,
      body,
      backend: outcome.backend ?? opts.backend,
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
              authorize: async (who: FormPrincipal) => void (await access(who)),
              virtualHost: hostBucket !== undefined,
              idleTimeoutMs: opts.bodyIdleTimeoutMs,
              ...(opts.onBodyIdleTimeout ? { onIdleTimeout: opts.onBodyIdleTimeout } : {}),
            },
          }
        : {}),
    };
    setCors(outcome.state?.cors);
    try {
      return await row.handler(c, req);
    } finally {
      // Bucket writes (ACL, policy, ownership, CORS, owner, delete) change what the cache holds.
      if (row.flags?.write && kind === 'bucket' && target.bucket !== undefined)
        opts.authorizer.cache.invalidate(target.bucket);
    }
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

function requestContext(c: Context<GatewayEnv>, account: Account, auth?: AuthResult): RequestContext {
  const base = { account, requestId: c.get('requestId'), signal: disconnectSignal(c) };
  const rdma = c.get('rdma');
  if (!rdma) return base;
  // CuServer's trust rules (no RDMA for anonymous requests, agent at the peer's address, signed
  // payload hash verified against the RDMA bytes) need what only the HTTP edge knows.
  return { ...base, rdma, origin: requestOrigin(c, auth) };
}

function requestOrigin(c: Context<GatewayEnv>, auth: AuthResult | undefined): RequestOrigin {
  const peerAddress = c.env.incoming.socket.remoteAddress;
  const payload = auth?.payload;
  return {
    anonymous: auth?.anonymous ?? true,
    ...(peerAddress === undefined ? {} : { peerAddress }),
    ...(payload?.kind === 'signed' ? { payloadSha256: payload.sha256 } : {}),
  };
}
