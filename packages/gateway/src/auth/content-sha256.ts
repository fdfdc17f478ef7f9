// The x-amz-content-sha256 values SigV4 defines, parsed once into a tagged value: the literal
// goes into the canonical request unchanged, the tag decides how the body is verified.
type ContentSha256 =
  | { kind: 'unsigned' }
  | { kind: 'signed'; sha256: string }
  | { kind: 'streaming-signed'; trailer: boolean }
  | { kind: 'streaming-unsigned-trailer' };

export const UNSIGNED_PAYLOAD = 'UNSIGNED-PAYLOAD';

// A Map, not an object literal: the value is the client's, and `constructor` or `toString`
// must not find Object.prototype's members.
const LITERALS: ReadonlyMap<string, ContentSha256> = new Map<string, ContentSha256>([
  [UNSIGNED_PAYLOAD, { kind: 'unsigned' }],
  ['STREAMING-AWS4-HMAC-SHA256-PAYLOAD', { kind: 'streaming-signed', trailer: false }],
  ['STREAMING-AWS4-HMAC-SHA256-PAYLOAD-TRAILER', { kind: 'streaming-signed', trailer: true }],
  ['STREAMING-UNSIGNED-PAYLOAD-TRAILER', { kind: 'streaming-unsigned-trailer' }],
]);

const HEX_SHA256 = /^[0-9a-fA-F]{64}$/;

/** undefined when the value is none of the defined forms (SigV4a's ECDSA modes included). */
export function parseContentSha256(value: string): ContentSha256 | undefined {
  const literal = LITERALS.get(value);
  if (literal) return literal;
  return HEX_SHA256.test(value) ? { kind: 'signed', sha256: value.toLowerCase() } : undefined;
}
