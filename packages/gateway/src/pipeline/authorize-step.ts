// The authorize step: the route's fixed rules (read-only gateway, admin accounts, admin signing),
// then the ACL/policy check, then the CORS headers of the bucket. Builds the Backend's
// RequestContext (with the plugins' fields) and hands on the outcome and the backend the handler
// calls. A form route (POST object) learns its key and signer from the body: its handler runs
// the check with checkAccess(); here only the bucket's state is read, so refusals carry CORS.
import { S3Error } from '@vgwrdma/backend-contract';
import type { Context, MiddlewareHandler } from 'hono';
import type { AuthzOutcome } from '../authz/index.js';
import { withConsoleRule } from '../cors/console-rule.js';
import { effectiveCorsRules } from '../cors/default-rule.js';
import { actualCorsHeaders, type CorsRule } from '../cors/index.js';
import type { GatewayEnv } from '../env.js';
import { header } from '../http/headers.js';
import { assertAdminSigning } from '../iam/admin-signing.js';
import type { FormPrincipal } from '../routes/types.js';
import type { PipelineOptions } from './pipeline-options.js';
import { requestContext } from './request-context.js';

export function authorizeStep(opts: PipelineOptions): MiddlewareHandler<GatewayEnv> {
  return async (c, next) => {
    const row = c.get('route');
    const auth = c.get('auth');
    const target = c.get('target');
    const headers = c.env.incoming.headers;
    if (row.flags?.write && opts.readonly) throw new S3Error('AccessDenied');
    if (row.flags?.admin && (auth.anonymous || auth.account.role !== 'admin'))
      throw new S3Error('XAdminAccessDenied');
    // Admin calls only under header SigV4 over a signed body: nothing of them can be swapped.
    if (row.flags?.admin) assertAdminSigning(auth);
    const ctx = requestContext(c, auth.account);
    c.set('requestContext', ctx);
    let outcome: AuthzOutcome;
    try {
      outcome = row.flags?.form
        ? { state: await opts.authorizer.cache.get(opts.backend, ctx, target.bucket ?? '') }
        : await checkAccess(c, opts, {
            account: auth.account,
            anonymous: auth.anonymous,
            key: target.key ?? '',
            headers,
          });
    } catch (err) {
      if (header(headers, 'origin') !== undefined) {
        const state =
          target.bucket === undefined
            ? undefined
            : await opts.authorizer.cache.get(opts.backend, ctx, target.bucket).catch(() => undefined);
        setCors(c, opts, state?.cors);
      }
      throw err;
    }
    c.set('authz', outcome);
    c.set('backend', outcome.backend ?? opts.backend);
    setCors(c, opts, outcome.state?.cors);
    return next();
  };
}

/** The ACL/policy check of `who` (the request's signer, or a form's) on this request's route. */
export function checkAccess(
  c: Context<GatewayEnv>,
  opts: PipelineOptions,
  who: FormPrincipal,
): Promise<AuthzOutcome> {
  // Legacy open mode (anonymousAccess) serves unsigned requests without the ACL/policy step.
  if (who.anonymous && opts.anonymousAccess) return Promise.resolve({});
  const row = c.get('route');
  const target = c.get('target');
  const incoming = c.env.incoming;
  return opts.authorizer.authorize({
    route: row,
    bucket: target.bucket ?? '',
    key: who.key,
    account: who.account,
    anonymous: who.anonymous,
    // A form's signer is the form's, not the request's (s3:authType POST).
    signing: row.flags?.form ? who.signing : c.get('auth').signing,
    headers: who.headers,
    query: target.query,
    sourceIp: incoming.socket.remoteAddress,
    secure: (incoming.socket as { encrypted?: boolean }).encrypted === true,
    backend: opts.backend,
    ctx: c.get('requestContext'),
  });
}

/**
 * Set on the Node response so they also reach replies written straight to it (GET bodies) and
 * error replies, refusals included: a browser reads an error only when CORS allows it.
 */
function setCors(c: Context<GatewayEnv>, opts: PipelineOptions, cors: readonly CorsRule[] | undefined): void {
  const incoming = c.env.incoming;
  const rules = withConsoleRule(effectiveCorsRules(cors, opts.defaultCors), opts.consoleCors);
  for (const [name, value] of Object.entries(
    actualCorsHeaders(rules, incoming.headers, c.get('target').method),
  ))
    c.env.outgoing.setHeader(name, value);
}
