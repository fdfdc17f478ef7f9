// Gives every request an id, echoed as x-amz-request-id (and x-amz-id-2) on every response,
// including errors and responses a handler writes to the Node response directly. The headers
// are set on the Node response, which merges them into whatever writeHead() sends later.
// An id is 16 upper-case hex digits, as S3's: a random per-process prefix and a counter. Ids
// only need to be unique (they name a request in logs and error bodies), not unpredictable, so
// one random draw per process replaces one per request.
import { randomBytes } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import type { GatewayEnv } from '../env.js';

const PREFIX = randomBytes(4).toString('hex').toUpperCase();
const COUNTER_SPACE = 0x1_0000_0000;
let counter = randomBytes(4).readUInt32BE(0);

export function newRequestId(): string {
  counter = (counter + 1) % COUNTER_SPACE;
  return PREFIX + counter.toString(16).toUpperCase().padStart(8, '0');
}

export function requestIdMiddleware(): MiddlewareHandler<GatewayEnv> {
  return async (c, next) => {
    const id = newRequestId();
    c.set('requestId', id);
    const outgoing = c.env?.outgoing;
    if (outgoing) {
      outgoing.setHeader('x-amz-request-id', id);
      outgoing.setHeader('x-amz-id-2', Buffer.from(id, 'latin1').toString('base64'));
    }
    await next();
  };
}
