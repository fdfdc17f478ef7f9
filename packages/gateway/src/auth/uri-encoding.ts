// Percent-decoding and SigV4's URI encoding, done on bytes so that any escape a client sends
// (lower-case hex, non-UTF-8 bytes, stray '%') round-trips to exactly one canonical form.
const HEX = '0123456789ABCDEF';

/** RFC 3986 unreserved characters: the only bytes SigV4 leaves unescaped. */
const UNRESERVED = new Uint8Array(256);
for (const ch of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.~') {
  UNRESERVED[ch.charCodeAt(0)] = 1;
}
const SLASH = 0x2f;

/** Encodes bytes the SigV4 way: unreserved bytes kept, everything else %XX upper-case. */
export function uriEncode(bytes: Uint8Array, keepSlash: boolean): string {
  let out = '';
  for (const byte of bytes) {
    if (UNRESERVED[byte] === 1 || (keepSlash && byte === SLASH)) out += String.fromCharCode(byte);
    else out += `%${HEX[byte >> 4]}${HEX[byte & 15]}`;
  }
  return out;
}

const ESCAPE = /%([0-9A-Fa-f]{2})/g;

/**
 * Percent-decodes to bytes. A '%' not followed by two hex digits is kept literally (what a
 * lenient server sees), and `plusAsSpace` applies form encoding's '+' rule.
 */
export function uriDecode(text: string, plusAsSpace: boolean): Buffer {
  const literal = (s: string) => Buffer.from(plusAsSpace ? s.replaceAll('+', ' ') : s, 'utf8');
  if (!text.includes('%')) return literal(text);
  const parts: Buffer[] = [];
  let last = 0;
  for (const match of text.matchAll(ESCAPE)) {
    const at = match.index;
    if (at > last) parts.push(literal(text.slice(last, at)));
    parts.push(Buffer.of(Number.parseInt(match[1] as string, 16)));
    last = at + 3;
  }
  if (last < text.length) parts.push(literal(text.slice(last)));
  return Buffer.concat(parts);
}

/** Re-encodes a wire string canonically: decode, then encode. */
export function reencode(text: string, keepSlash: boolean, plusAsSpace: boolean): string {
  return uriEncode(uriDecode(text, plusAsSpace), keepSlash);
}
