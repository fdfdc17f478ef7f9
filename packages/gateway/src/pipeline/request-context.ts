// The Backend's RequestContext of one request: the account, the request id, the disconnect
// signal, and whatever fields plugins added at the steps before (backendContext).
import type { Account, RequestContext } from '@vgwrdma/backend-contract';
import { S3Error } from '@vgwrdma/backend-contract';
import type { Context } from 'hono';
import type { GatewayEnv } from '../env.js';
import { disconnectSignalOf } from '../http/response-close.js';

/** An AbortSignal that fires when the client goes away before the response is complete. */
function disconnectSignal(c: Context<GatewayEnv>): AbortSignal {
  return disconnectSignalOf(c.env.outgoing, () => new S3Error('RequestTimeout'));
}

export function requestContext(c: Context<GatewayEnv>, account: Account): RequestContext {
  return {
    ...c.get('backendContext'),
    account,
    requestId: c.get('requestId'),
    signal: disconnectSignal(c),
  };
}
