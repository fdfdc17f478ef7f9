// One info line per request, written when the Node response finishes or the connection closes,
// so handlers that stream straight to the socket are logged with their real status and size.
import type { MiddlewareHandler } from 'hono';
import type { GatewayEnv } from '../env.js';
import type { Logger } from '../logger.js';

export function accessLogMiddleware(logger: Logger): MiddlewareHandler<GatewayEnv> {
  return async (c, next) => {
    const started = performance.now();
    const outgoing = c.env?.outgoing;
    if (outgoing) {
      const log = (): void => {
        logger.info(
          {
            requestId: c.get('requestId'),
            method: c.env.incoming.method,
            url: c.env.incoming.url,
            status: outgoing.statusCode,
            account: c.get('account')?.access,
            completed: outgoing.writableFinished,
            ms: Math.round(performance.now() - started),
          },
          'request',
        );
      };
      outgoing.once('close', log);
    }
    await next();
  };
}
