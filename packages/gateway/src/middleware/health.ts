// Answers the configured health path with 200 before authentication (load-balancer checks).
import type { MiddlewareHandler } from 'hono';
import type { GatewayEnv } from '../env.js';

export function healthMiddleware(path: string): MiddlewareHandler<GatewayEnv> {
  return async (c, next) => {
    const method = c.req.method;
    if ((method === 'GET' || method === 'HEAD') && c.req.path === path) {
      return new Response(null, { status: 200, headers: { 'content-length': '0' } });
    }
    await next();
  };
}
