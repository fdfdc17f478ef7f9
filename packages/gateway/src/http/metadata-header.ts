// User metadata values on the way out, so that what a client reads back is what it put. Header
// bytes arrive as latin1 characters (see auth/signed-bytes.ts), one per byte. botocore and the
// JS SDK on Node send non-ASCII values as their UTF-8 bytes and read response headers as
// ISO-8859-1, as HTTP defines them; so bytes that are valid UTF-8 are read as the text they
// encode, and text that ISO-8859-1 can carry (é, ö, ß, …) is answered that way: botocore's and
// the SDK's é come back as é. Text beyond it (日本) is answered as the UTF-8 bytes that came in,
// raw. Bytes that are not UTF-8 are answered as they came. No RFC 2047 encoded word is sent
// (clients do not decode it), except for a value holding a control character, which cannot be a
// header at all.
const SENDABLE = /^[\t\x20-\x7e\x80-\xff]*$/;
const ABOVE_LATIN1 = /[\u0100-\uffff]/;

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The text the client meant: wire bytes read as UTF-8 when they are UTF-8, else as latin1. */
function textOf(value: string): string {
  // Characters above U+00FF never come off the wire; a value holding one is already text.
  if (ABOVE_LATIN1.test(value)) return value;
  try {
    return utf8.decode(Buffer.from(value, 'latin1'));
  } catch {
    return value;
  }
}

export function metadataHeaderValue(value: string): string {
  if (SENDABLE.test(value) && !/[\x80-\xff]/.test(value)) return value;
  const text = textOf(value);
  const wire = ABOVE_LATIN1.test(text) ? Buffer.from(text, 'utf8').toString('latin1') : text;
  return SENDABLE.test(wire) ? wire : `=?UTF-8?B?${Buffer.from(text, 'utf8').toString('base64')}?=`;
}
