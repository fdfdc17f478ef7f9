// Types of the cuObject DC v1 RDMA token (docs/protocol.md "The DC v1 token"): the typed value that
// replaces the 81-character string once it has been parsed at the HTTP edge.

import { type VgwErrorCodeOf, VgwrdmaError } from '@vgwrdma/errors';

/** Direction of a transfer, seen from the client (cuObjOpType_t: GET = 0, PUT = 1). */
export type RdmaOp = 'get' | 'put';

/** Numeric values of `RdmaOp` on the C ABI. */
export const RDMA_OP_CODE: Readonly<Record<RdmaOp, number>> = { get: 0, put: 1 };

/** The seven fields of a DC v1 token, typed. */
export interface DcTokenFields {
  /** Field 1: virtual address of the client buffer (u64). */
  readonly addr: bigint;
  /** Field 2: PUT payload size or GET destination capacity (u32, never 0 in a valid token). */
  readonly size: number;
  /** Field 3: remote key of the registration (u32). */
  readonly rkey: number;
  /** Field 4: InfiniBand LID (u16), 0 on RoCE. */
  readonly lid: number;
  /** Field 5: DC target number (24 bits); the agent's TCP port on softnic. */
  readonly dctn: number;
  /** Field 6: whether field 7 carries a GID. */
  readonly gidPresent: boolean;
  /** Field 7: 16 raw GID bytes (IPv4-mapped on RoCEv2 and softnic). */
  readonly gid: Uint8Array;
}

/**
 * A parsed token: the fields, the optional suffix override, and what they add up to. This is what
 * travels downstream (descriptor, CuServer, RdmaServer, the C struct): nobody parses the string again.
 */
export interface RdmaToken extends DcTokenFields {
  /** The 81-character base token, exactly as received (without the override suffix). */
  readonly base: string;
  /** Suffix field `<addr16>` of the override form; 0n when absent or "no override". */
  readonly overrideAddr: bigint;
  /** Suffix field `<size16>` of the override form; 0n when absent or "no override". */
  readonly overrideSize: bigint;
  /** Address to transfer at: the override address when non-zero, else field 1. */
  readonly remoteAddr: bigint;
  /** Bytes the token covers: the override size when non-zero, else field 2. */
  readonly length: number;
}

/**
 * What a token string is:
 * - `dc-v1` / `dc-v1-override`: supported, parses;
 * - `rc`: an RC/hipObject-style token — well-formed enough to recognise, but not supported
 *   (the gateway answers 501 so the client falls back to HTTP);
 * - `malformed`: anything else (400 InvalidArgument).
 */
export type RdmaTokenKind = 'dc-v1' | 'dc-v1-override' | 'rc' | 'malformed';

/** The failure kinds, which the HTTP edge maps to 501 (`unsupported`) or 400 (`malformed`). */
export type RdmaTokenErrorKind = 'unsupported' | 'malformed';

/** The catalogue code of each failure kind (docs/errors.md). */
export const RDMA_TOKEN_ERROR_CODES = {
  unsupported: 'VGW_ERR_RDMA_TOKEN_UNSUPPORTED',
  malformed: 'VGW_ERR_RDMA_TOKEN_MALFORMED',
} as const satisfies Record<RdmaTokenErrorKind, VgwErrorCodeOf<'RdmaTokenError'>>;

/**
 * Thrown by `parseRdmaToken` (and `formatRdmaToken` for out-of-range fields); `code` is
 * VGW_ERR_RDMA_TOKEN_UNSUPPORTED or VGW_ERR_RDMA_TOKEN_MALFORMED.
 */
export class RdmaTokenError extends VgwrdmaError<VgwErrorCodeOf<'RdmaTokenError'>> {
  override readonly name = 'RdmaTokenError';
  constructor(kind: RdmaTokenErrorKind, message: string) {
    super(RDMA_TOKEN_ERROR_CODES[kind], message);
  }

  /** @deprecated branch on `code`; the kind the code stands for, kept for callers of 0.x. */
  get kind(): RdmaTokenErrorKind {
    return this.code === RDMA_TOKEN_ERROR_CODES.unsupported ? 'unsupported' : 'malformed';
  }
}

/** Result of `tryParseRdmaToken`: never throws, for hot paths and header validation. */
export type RdmaTokenParseResult =
  | { readonly ok: true; readonly token: RdmaToken }
  | { readonly ok: false; readonly kind: RdmaTokenErrorKind; readonly reason: string };
