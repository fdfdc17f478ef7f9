// Answers the configured health path with 200 before authentication (load-balancer checks); the
// access log and metrics name it operation Health.
import type { MiddlewareHandler } from 'hono';
import type { GatewayEnv } from '../env.js';

export function healthMiddleware(path: string): MiddlewareHandler<GatewayEnv> {
  return async (c, next) => {
    const method = c.req.method;
    if ((method === 'GET' || method === 'HEAD') && c.req.path === path) {
      c.set('operation', 'Health');
      return new Response(null, { status: 200, headers: { 'content-length': '0' } });
    }
    await next();
  };
}
