// Which transport errors mean "the client endpoint cannot be reached" (a decline) rather than
// "the transfer broke" (a failure). (The token a transfer uses is the descriptor's own: the HTTP
// edge already set its window, so nothing is formatted or parsed here.)

import { RdmaError } from '@vgwrdma/rdma-ffi';

// connect refused / no route (softnic maps them to ENODEV), or a token the transport cannot route.
const UNREACHABLE = new Set(['ENODEV', 'ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'EAFNOSUPPORT']);

/**
 * Whether a transfer error says the client's endpoint could not be reached: refused or no route,
 * or a timeout before a single byte moved — an agent whose link is down never answers the
 * connect (softnic: ETIMEDOUT after its connect timeout), and with nothing moved the request can
 * still be declined (PUT) or served over HTTP (GET) instead of failing.
 */
export function isUnreachable(err: unknown, moved: number): boolean {
  if (!(err instanceof RdmaError)) return false;
  return UNREACHABLE.has(err.errnoName) || (err.errnoName === 'ETIMEDOUT' && moved === 0);
}
