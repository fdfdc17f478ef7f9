// Parse, validate, classify and format DC v1 tokens (docs/protocol.md). The same rules as the C codec
// in native-shims, and rdma-ffi's tests hold the two to each other through koffi:
//   base     = %016lx:%08x:%08x:%04x:%06x:%01x:%016lx%016lx   (81 chars, lowercase hex)
//   override = <base>:<addr %016lx>:<size %016lx>, optionally followed by one ';'
//   rc       = an `rc:` prefix, or a first field of more than 16 hex digits → unsupported
// Everything else is malformed, including a size field of 0 (whatever the override says).
// One deliberate difference from C: an override size above 2^53 is refused here, because
// `length` is a JS number (no real buffer is that large).

import {
  type DcTokenFields,
  type RdmaToken,
  RdmaTokenError,
  type RdmaTokenKind,
  type RdmaTokenParseResult,
} from './token-types.js';

/** Length of a base DC v1 token. */
export const DC_TOKEN_LENGTH = 81;
/** Length of the suffixed override form without the optional trailing ';'. */
export const DC_TOKEN_OVERRIDE_LENGTH = DC_TOKEN_LENGTH + 2 * 17;

// Width in hex digits of each of the seven colon-separated fields of the base token.
const FIELD_WIDTHS = [16, 8, 8, 4, 6, 1, 32] as const;
const LOWER_HEX = /^[0-9a-f]+$/;
const U64_MAX = (1n << 64n) - 1n;

type Failure = { ok: false; kind: 'unsupported' | 'malformed'; reason: string };
const malformed = (reason: string): Failure => ({ ok: false, kind: 'malformed', reason });
const unsupported = (reason: string): Failure => ({ ok: false, kind: 'unsupported', reason });

/** Whether `s` looks like an RC/hipObject token: `rc:` prefix or a first field longer than 16 hex. */
// (the first field must be a lowercase hex run, as in the C codec: 'ABC…' is malformed, not RC)
function isRcStyle(s: string): boolean {
  if (s.slice(0, 3).toLowerCase() === 'rc:') return true; // any case (RC:, Rc:), as in the C codec
  const first = s.split(':', 1)[0] ?? '';
  return first.length > FIELD_WIDTHS[0] && LOWER_HEX.test(first);
}

function hexToBytes(hex: string): Uint8Array {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

function bytesToHex(bytes: Uint8Array): string {
  let out = '';
  for (const b of bytes) out += b.toString(16).padStart(2, '0');
  return out;
}

function parseBase(base: string): DcTokenFields | Failure {
  if (base.length !== DC_TOKEN_LENGTH) return malformed(`token must be ${DC_TOKEN_LENGTH} characters`);
  const parts = base.split(':');
  if (parts.length !== FIELD_WIDTHS.length) return malformed('token must have 7 colon-separated fields');
  for (const [i, width] of FIELD_WIDTHS.entries()) {
    const part = parts[i] ?? '';
    if (part.length !== width) return malformed(`token field ${i + 1} must be ${width} hex digits`);
    if (!LOWER_HEX.test(part)) return malformed(`token field ${i + 1} is not lowercase hex`);
  }
  const [addr, size, rkey, lid, dctn, gidFlag, gid] = parts as [
    string,
    string,
    string,
    string,
    string,
    string,
    string,
  ];
  if (gidFlag !== '0' && gidFlag !== '1') return malformed('token field 6 (GID present) must be 0 or 1');
  if (/^0+$/.test(size)) return malformed('token size is 0'); // even with an override size, as in C
  return {
    addr: BigInt(`0x${addr}`),
    size: Number.parseInt(size, 16),
    rkey: Number.parseInt(rkey, 16),
    lid: Number.parseInt(lid, 16),
    dctn: Number.parseInt(dctn, 16),
    gidPresent: gidFlag === '1',
    gid: hexToBytes(gid),
  };
}

function parseSuffix(suffix: string): { addr: bigint; size: bigint } | Failure {
  // suffix = ":<16>:<16>" (the optional ';' is already stripped)
  const m = /^:([0-9a-f]{16}):([0-9a-f]{16})$/.exec(suffix);
  if (!m) return malformed('override suffix must be :<16 hex addr>:<16 hex size>');
  return { addr: BigInt(`0x${m[1]}`), size: BigInt(`0x${m[2]}`) };
}

/** Parses a token without throwing. */
export function tryParseRdmaToken(input: string): RdmaTokenParseResult {
  if (isRcStyle(input)) return unsupported('RC-style tokens are not supported; retry without the token');
  let s = input;
  if (s.length === DC_TOKEN_OVERRIDE_LENGTH + 1 && s.endsWith(';')) s = s.slice(0, -1);
  if (s.length !== DC_TOKEN_LENGTH && s.length !== DC_TOKEN_OVERRIDE_LENGTH) {
    return malformed(`token must be ${DC_TOKEN_LENGTH} or ${DC_TOKEN_OVERRIDE_LENGTH} characters`);
  }
  const fields = parseBase(s.slice(0, DC_TOKEN_LENGTH));
  if ('ok' in fields) return fields;
  let overrideAddr = 0n;
  let overrideSize = 0n;
  if (s.length === DC_TOKEN_OVERRIDE_LENGTH) {
    const suffix = parseSuffix(s.slice(DC_TOKEN_LENGTH));
    if ('ok' in suffix) return suffix;
    overrideAddr = suffix.addr;
    overrideSize = suffix.size;
  }
  const lengthBig = overrideSize !== 0n ? overrideSize : BigInt(fields.size);
  if (lengthBig > BigInt(Number.MAX_SAFE_INTEGER)) return malformed('token size is out of range');
  const token: RdmaToken = {
    ...fields,
    base: s.slice(0, DC_TOKEN_LENGTH),
    overrideAddr,
    overrideSize,
    remoteAddr: overrideAddr !== 0n ? overrideAddr : fields.addr,
    length: Number(lengthBig),
  };
  return { ok: true, token };
}

/**
 * The token with its window set to [addr, +size): the legacy trio's address and size, put where a
 * suffixed override would put them. As in the override form, an address of 0n means "field 1".
 * Throws RdmaTokenError for a size that is not a positive safe integer or an address outside u64.
 */
export function withWindow(token: RdmaToken, addr: bigint, size: number): RdmaToken {
  if (!Number.isSafeInteger(size) || size <= 0)
    throw new RdmaTokenError('malformed', 'window size must be > 0');
  if (addr < 0n || addr > U64_MAX) throw new RdmaTokenError('malformed', 'window address out of range');
  return {
    ...token,
    overrideAddr: addr,
    overrideSize: BigInt(size),
    remoteAddr: addr !== 0n ? addr : token.addr,
    length: size,
  };
}

/** Parses a token; throws `RdmaTokenError` (kind `unsupported` or `malformed`) when it is not valid. */
export function parseRdmaToken(input: string): RdmaToken {
  const r = tryParseRdmaToken(input);
  if (!r.ok) throw new RdmaTokenError(r.kind, r.reason);
  return r.token;
}

/** Says what kind of token a string is, without building the typed value. */
export function classifyRdmaToken(input: string): RdmaTokenKind {
  const r = tryParseRdmaToken(input);
  if (!r.ok) return r.kind === 'unsupported' ? 'rc' : 'malformed';
  return input.length > DC_TOKEN_LENGTH ? 'dc-v1-override' : 'dc-v1';
}

// Field ranges for formatting: name, value, max (inclusive), hex width.
function hexField(name: string, value: bigint | number, max: bigint, width: number): string {
  const v = BigInt(value);
  if (v < 0n || v > max) throw new RdmaTokenError('malformed', `token field ${name} out of range`);
  return v.toString(16).padStart(width, '0');
}

/** Options for `formatRdmaToken`: the override suffix (docs/protocol.md "Suffixed override"). */
export interface FormatRdmaTokenOptions {
  readonly override?: { readonly addr: bigint; readonly size: bigint };
  /** Append the optional trailing ';' after the override suffix. */
  readonly semicolon?: boolean;
}

/** Formats the typed fields as the 81-character token (or the suffixed override form). */
export function formatRdmaToken(fields: DcTokenFields, options: FormatRdmaTokenOptions = {}): string {
  if (fields.gid.length !== 16) throw new RdmaTokenError('malformed', 'GID must be 16 bytes');
  if (fields.size === 0) throw new RdmaTokenError('malformed', 'token size must not be 0');
  const base = [
    hexField('addr', fields.addr, U64_MAX, 16),
    hexField('size', fields.size, 0xffff_ffffn, 8),
    hexField('rkey', fields.rkey, 0xffff_ffffn, 8),
    hexField('lid', fields.lid, 0xffffn, 4),
    hexField('dctn', fields.dctn, 0xff_ffffn, 6),
    fields.gidPresent ? '1' : '0',
    bytesToHex(fields.gid),
  ].join(':');
  if (!options.override) return base;
  const { addr, size } = options.override;
  const suffix = `:${hexField('override addr', addr, U64_MAX, 16)}:${hexField('override size', size, U64_MAX, 16)}`;
  return base + suffix + (options.semicolon ? ';' : '');
}
