// versitygw's --max-requests: at most `max` S3 requests in flight at once; the next one is answered
// 503 SlowDown (which SDKs retry with backoff) before it is authenticated or its body is read. A
// request stays counted until its response is finished or its connection is gone, so a streamed
// GET or a slow upload holds its slot for as long as it runs. The health and ready paths answer
// before this middleware: a saturated gateway is busy, not dead, and must not be restarted for it.
// It always counts (for Gateway.limitStats()); `max` 0 only turns the refusal off.
import { S3Error } from '@vgwrdma/backend-contract';
import type { MiddlewareHandler } from 'hono';
import type { GatewayEnv } from '../env.js';
import { onResponseClose } from '../http/response-close.js';
import type { InFlightRequests } from '../server/in-flight.js';
import type { LimitCounters } from '../server/limit-stats.js';

export function requestLimitMiddleware(
  max: number,
  counters: LimitCounters,
  inFlight?: InFlightRequests,
): MiddlewareHandler<GatewayEnv> {
  return async (c, next) => {
    if (max > 0 && counters.inFlight >= max) {
      counters.rejectedSlowDown++;
      throw new S3Error('SlowDown');
    }
    counters.inFlight++;
    let released = false;
    const release = (): void => {
      if (released) return;
      released = true;
      counters.inFlight--;
    };
    // 'close' follows 'finish', and also comes when the client goes away mid-response.
    const outgoing = c.env?.outgoing;
    if (outgoing) onResponseClose(outgoing, release);
    try {
      const handler = next();
      // For the shutdown deadline: which requests run, and when their handlers have unwound.
      if (outgoing && inFlight) inFlight.track(outgoing, handler);
      await handler;
    } finally {
      if (!outgoing) release();
    }
  };
}
