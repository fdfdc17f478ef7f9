// The preflight step: every OPTIONS is a CORS preflight, answered here (nothing after this step
// runs for it). Without an Origin it is a bad one (400, as S3 answers and the s3-tests suite
// checks), not an unsupported method. The console's preflights need no bucket lookup.
import { ANONYMOUS } from '@vgwrdma/backend-contract';
import type { MiddlewareHandler } from 'hono';
import { isConsoleOrigin, withConsoleRule } from '../cors/console-rule.js';
import { effectiveCorsRules } from '../cors/default-rule.js';
import { preflightResponse } from '../cors/index.js';
import type { GatewayEnv } from '../env.js';
import { header } from '../http/headers.js';
import type { PipelineOptions } from './pipeline-options.js';
import { requestContext } from './request-context.js';

export function preflightStep(opts: PipelineOptions): MiddlewareHandler<GatewayEnv> {
  return async (c, next) => {
    const target = c.get('target');
    if (target.method !== 'OPTIONS') return next();
    const headers = c.env.incoming.headers;
    if (isConsoleOrigin(opts.consoleCors, header(headers, 'origin')))
      return preflightResponse(withConsoleRule(undefined, opts.consoleCors), headers);
    const rules =
      target.bucket === undefined
        ? undefined
        : (await opts.authorizer.cache.get(opts.backend, requestContext(c, ANONYMOUS), target.bucket)).cors;
    return preflightResponse(effectiveCorsRules(rules, opts.defaultCors), headers);
  };
}
