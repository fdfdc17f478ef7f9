// The request headers that carry an RDMA descriptor (docs/protocol.md "Headers"), parsed once into a
// typed outcome. Pure: no HTTP framework, no S3 types, no I/O — a refusal is a value (S3 code,
// status, message) that the HTTP edge (cu-middleware) turns into its error document.
//   x-amz-rdma-token            81-char DC v1, or the suffixed override (optionally ending ';')
//   X-CuObj-RDMA-Descr + X-CuObj-Content-Length + X-CuObj-Remote-Buf-Start   legacy trio (decimal)
//   x-amz-rdma-agent            'cuobj' when present; any other value is refused
// When both schemes are present the legacy trio wins (as in vgwrdma).
// Refused as malformed (400) as well: a window whose address + size wraps past 2^64, and, on the
// softnic transport, a DCTN field (the agent's TCP port there) above 65535.

import type { RdmaAgent, RdmaDescriptor } from './descriptor.js';
import { AGENT_HEADER, LEGACY_HEADERS, TOKEN_HEADER } from './header-names.js';
import { tryParseRdmaToken, withWindow } from './token-codec.js';
import type { RdmaToken } from './token-types.js';

/** Why the headers were refused: the S3 error code and HTTP status to answer with, and why. */
export interface RdmaRefusal {
  /** 'InvalidArgument' (400) for anything malformed; 'NotImplemented' (501) for RC-style tokens. */
  readonly code: 'InvalidArgument' | 'NotImplemented';
  readonly status: 400 | 501;
  readonly message: string;
}

export type RdmaHeaderOutcome =
  | { readonly kind: 'none' }
  | { readonly kind: 'rdma'; readonly descriptor: RdmaDescriptor }
  | { readonly kind: 'refused'; readonly refusal: RdmaRefusal };

/** Reads one header (case-insensitive name); undefined when absent. */
export type HeaderLookup = (lowerCaseName: string) => string | undefined;

/** The transports a gateway can run, as far as the token's meaning goes. */
export type RdmaTransportKind = 'softnic' | 'cuobj';

/** What the parse depends on besides the headers. */
export interface RdmaHeaderOptions {
  /**
   * The gateway's transport: on 'softnic' (the default) the token's DCTN field is the agent's TCP
   * port, so it must be ≤ 65535; on 'cuobj' it is a 24-bit DC target number.
   */
  readonly transport?: RdmaTransportKind;
}

/** The largest TCP port: a softnic token's DCTN. */
const MAX_PORT = 65_535;

const U64_MAX = (1n << 64n) - 1n;
const U64_END = 1n << 64n;
const DECIMAL = /^[0-9]+$/;

type Refused = Extract<RdmaHeaderOutcome, { kind: 'refused' }>;

const invalid = (message: string): Refused => ({
  kind: 'refused',
  refusal: { code: 'InvalidArgument', status: 400, message },
});

/** 501 for RC/hipObject tokens, with no reply header, so such clients fall back to HTTP. */
const unsupported = (): Refused => ({
  kind: 'refused',
  refusal: {
    code: 'NotImplemented',
    status: 501,
    message: 'RC-style RDMA tokens are not supported; retry without x-amz-rdma-token',
  },
});

/** The request carries a body (docs/protocol.md: a token and a non-empty body → 400). */
export function hasRequestBody(get: HeaderLookup): boolean {
  const decoded = get('x-amz-decoded-content-length');
  if (decoded !== undefined) return decoded.trim() !== '0';
  const length = get('content-length');
  if (length !== undefined) return length.trim() !== '0';
  return get('transfer-encoding') !== undefined;
}

function parseToken(raw: string, options: RdmaHeaderOptions): RdmaToken | Refused {
  const r = tryParseRdmaToken(raw);
  if (!r.ok)
    return r.kind === 'unsupported' ? unsupported() : invalid(`Invalid x-amz-rdma-token: ${r.reason}`);
  if ((options.transport ?? 'softnic') === 'softnic' && r.token.dctn > MAX_PORT)
    return invalid(
      `Invalid x-amz-rdma-token: field 5 (DCTN, the agent's TCP port on softnic) is ${r.token.dctn}, above ${MAX_PORT}`,
    );
  return r.token;
}

/** The legacy trio as a token whose window is Remote-Buf-Start / Content-Length; undefined when absent. */
function parseLegacy(get: HeaderLookup, options: RdmaHeaderOptions): RdmaToken | Refused | undefined {
  const descr = get(LEGACY_HEADERS.descriptor);
  const length = get(LEGACY_HEADERS.contentLength);
  const start = get(LEGACY_HEADERS.remoteStart);
  if (descr === undefined && length === undefined && start === undefined) return undefined;
  if (descr === undefined || length === undefined || start === undefined) {
    return invalid(
      'The X-CuObj-RDMA-Descr, X-CuObj-Content-Length and X-CuObj-Remote-Buf-Start headers go together',
    );
  }
  if (!DECIMAL.test(length) || !Number.isSafeInteger(Number(length)) || Number(length) <= 0) {
    return invalid('X-CuObj-Content-Length must be a positive decimal integer');
  }
  if (!DECIMAL.test(start) || BigInt(start) > U64_MAX) {
    return invalid('X-CuObj-Remote-Buf-Start must be a decimal unsigned 64-bit integer');
  }
  const token = parseToken(descr, options);
  if ('kind' in token) return token;
  return withWindow(token, BigInt(start), Number(length));
}

/** Parses the RDMA headers of one request. */
export function parseRdmaHeaders(get: HeaderLookup, options: RdmaHeaderOptions = {}): RdmaHeaderOutcome {
  const agentRaw = get(AGENT_HEADER);
  if (agentRaw !== undefined && agentRaw !== 'cuobj')
    return invalid(`Unsupported x-amz-rdma-agent: ${agentRaw}`);
  const agent: { agent?: RdmaAgent } = agentRaw === undefined ? {} : { agent: 'cuobj' };

  const legacy = parseLegacy(get, options);
  const rawToken = get(TOKEN_HEADER);
  if (legacy === undefined && rawToken === undefined) return { kind: 'none' };
  const token = legacy ?? parseToken(rawToken ?? '', options);
  if ('kind' in token) return token;
  if (token.remoteAddr + BigInt(token.length) > U64_END) {
    return invalid('The RDMA window (remote address + size) wraps past the end of the 64-bit address space');
  }
  if (hasRequestBody(get)) {
    return invalid('A request with an RDMA descriptor must have an empty body (Content-Length: 0)');
  }
  const scheme = legacy === undefined ? 'token' : 'legacy';
  return { kind: 'rdma', descriptor: { token, scheme, ...agent } };
}
