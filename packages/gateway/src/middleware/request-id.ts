// Gives every request an id, echoed as x-amz-request-id (and x-amz-id-2) on every response,
// including errors and responses a handler writes to the Node response directly. The headers
// are set on the Node response, which merges them into whatever writeHead() sends later.
import { randomBytes } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import type { GatewayEnv } from '../env.js';

export function newRequestId(): string {
  return randomBytes(8).toString('hex').toUpperCase();
}

export function requestIdMiddleware(): MiddlewareHandler<GatewayEnv> {
  return async (c, next) => {
    const id = newRequestId();
    c.set('requestId', id);
    const outgoing = c.env?.outgoing;
    if (outgoing) {
      outgoing.setHeader('x-amz-request-id', id);
      outgoing.setHeader('x-amz-id-2', Buffer.from(id).toString('base64'));
    }
    await next();
  };
}
