// The edge between CuServer and rdma-ffi: the token a transfer uses, and which transport errors
// mean "the client endpoint cannot be reached" (a decline) rather than "the transfer broke"
// (a failure).

import { formatRdmaToken, parseRdmaToken, RdmaError, type RdmaToken } from '@vgwrdma/rdma-ffi';
import type { RdmaDescriptor } from '@vgwrdma/s3-backend';

/**
 * The token for a descriptor's window: its base token with the override suffix set to the
 * descriptor's address and size, so the transport's window check is exactly [remoteAddress,
 * +size) whichever scheme (token override or legacy trio) named it.
 */
export function transferToken(d: RdmaDescriptor): RdmaToken {
  const base = parseRdmaToken(d.token);
  return parseRdmaToken(formatRdmaToken(base, { override: { addr: d.remoteAddress, size: BigInt(d.size) } }));
}

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
