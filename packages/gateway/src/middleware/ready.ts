// Answers the configured ready path (GET/HEAD, before authentication) with 200 when the gateway
// can serve — backend reachable, plugins ready — and 503 otherwise, with the checks as JSON so an
// operator sees which one failed. Kubernetes' readinessProbe takes the gateway out of the
// Service while it answers 503, without restarting it (that is the health path's business). The
// access log and metrics name it operation Ready.
import type { MiddlewareHandler } from 'hono';
import type { GatewayEnv } from '../env.js';
import type { ReadinessReport } from '../health/readiness.js';

export function readyMiddleware(
  path: string,
  check: () => Promise<ReadinessReport>,
): MiddlewareHandler<GatewayEnv> {
  return async (c, next) => {
    const method = c.req.method;
    if ((method !== 'GET' && method !== 'HEAD') || c.req.path !== path) return next();
    c.set('operation', 'Ready');
    const report = await check();
    const status = report.ready ? 200 : 503;
    const body = JSON.stringify(report);
    const headers = { 'content-type': 'application/json', 'cache-control': 'no-store' };
    return new Response(method === 'HEAD' ? null : body, { status, headers });
  };
}
