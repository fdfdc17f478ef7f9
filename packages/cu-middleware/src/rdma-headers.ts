// The request headers that carry an RDMA descriptor (docs/protocol.md "Headers"), parsed once into a
// typed outcome. Pure: no hono, no I/O, so every header case is a plain function call.
//   x-amz-rdma-token            81-char DC v1, or the suffixed override (optionally ending ';')
//   X-CuObj-RDMA-Descr + X-CuObj-Content-Length + X-CuObj-Remote-Buf-Start   legacy trio (decimal)
//   x-amz-rdma-agent            'cuobj' when present; any other value is refused
// When both schemes are present the legacy trio wins (as in vgwrdma).
// Refused as malformed (400) as well: a window whose address + size wraps past 2^64, and, on the
// softnic transport, a DCTN field (the agent's TCP port there) above 65535.

import type { RdmaDescriptor } from '@vgwrdma/s3-backend';
import { S3Error } from '@vgwrdma/s3-backend';
import { tryParseRdmaToken } from './token-codec.js';

export const TOKEN_HEADER = 'x-amz-rdma-token';
export const AGENT_HEADER = 'x-amz-rdma-agent';
export const LEGACY_HEADERS = {
  descriptor: 'x-cuobj-rdma-descr',
  contentLength: 'x-cuobj-content-length',
  remoteStart: 'x-cuobj-remote-buf-start',
} as const;

/** The only agent value accepted (NooBaa sends it). */
export type RdmaAgent = 'cuobj';

/** A descriptor plus what else the headers said. Assignable to s3-backend's RdmaDescriptor. */
export interface CuDescriptor extends RdmaDescriptor {
  /** x-amz-rdma-agent, when sent. */
  readonly agent?: RdmaAgent;
}

export type RdmaHeaderOutcome =
  | { readonly kind: 'none' }
  | { readonly kind: 'rdma'; readonly descriptor: CuDescriptor }
  | { readonly kind: 'error'; readonly error: S3Error };

/** Reads one header (case-insensitive name); undefined when absent. */
export type HeaderLookup = (lowerCaseName: string) => string | undefined;

/** What the parse depends on besides the headers. */
export interface RdmaHeaderOptions {
  /**
   * The gateway's transport: on 'softnic' (the default) the token's DCTN field is the agent's TCP
   * port, so it must be ≤ 65535; on 'cuobj' it is a 24-bit DC target number.
   */
  readonly transport?: 'softnic' | 'cuobj';
}

/** The largest TCP port: a softnic token's DCTN. */
const MAX_PORT = 65_535;

const U64_MAX = (1n << 64n) - 1n;
const U64_END = 1n << 64n;
const DECIMAL = /^[0-9]+$/;

const invalid = (message: string): RdmaHeaderOutcome => ({
  kind: 'error',
  error: S3Error.custom('InvalidArgument', message),
});

/** 501 for RC/hipObject tokens, with no reply header, so such clients fall back to HTTP. */
const unsupported = (): RdmaHeaderOutcome => ({
  kind: 'error',
  error: S3Error.custom(
    'NotImplemented',
    'RC-style RDMA tokens are not supported; retry without x-amz-rdma-token',
  ),
});

/** The request carries a body (docs/protocol.md: a token and a non-empty body → 400). */
export function hasRequestBody(get: HeaderLookup): boolean {
  const decoded = get('x-amz-decoded-content-length');
  if (decoded !== undefined) return decoded.trim() !== '0';
  const length = get('content-length');
  if (length !== undefined) return length.trim() !== '0';
  return get('transfer-encoding') !== undefined;
}

type ParsedToken = { base: string; remoteAddress: bigint; size: number };

function parseToken(raw: string, options: RdmaHeaderOptions): ParsedToken | RdmaHeaderOutcome {
  const r = tryParseRdmaToken(raw);
  if (!r.ok)
    return r.kind === 'unsupported' ? unsupported() : invalid(`Invalid x-amz-rdma-token: ${r.reason}`);
  if ((options.transport ?? 'softnic') === 'softnic' && r.token.dctn > MAX_PORT)
    return invalid(
      `Invalid x-amz-rdma-token: field 5 (DCTN, the agent's TCP port on softnic) is ${r.token.dctn}, above ${MAX_PORT}`,
    );
  return { base: r.token.base, remoteAddress: r.token.remoteAddr, size: r.token.length };
}

function parseLegacy(
  get: HeaderLookup,
  options: RdmaHeaderOptions,
): Omit<CuDescriptor, 'agent'> | RdmaHeaderOutcome | undefined {
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
  return { token: token.base, remoteAddress: BigInt(start), size: Number(length), scheme: 'legacy' };
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
  if (legacy !== undefined && 'kind' in legacy) return legacy;
  let descriptor: CuDescriptor;
  if (legacy !== undefined) {
    descriptor = { ...legacy, ...agent };
  } else {
    const token = parseToken(rawToken ?? '', options);
    if ('kind' in token) return token;
    descriptor = {
      token: token.base,
      remoteAddress: token.remoteAddress,
      size: token.size,
      scheme: 'token',
      ...agent,
    };
  }
  if (descriptor.remoteAddress + BigInt(descriptor.size) > U64_END) {
    return invalid('The RDMA window (remote address + size) wraps past the end of the 64-bit address space');
  }
  if (hasRequestBody(get)) {
    return invalid('A request with an RDMA descriptor must have an empty body (Content-Length: 0)');
  }
  return { kind: 'rdma', descriptor };
}
