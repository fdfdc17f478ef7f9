// User metadata values on the way out, as Ceph RGW answers them: the bytes the client sent, raw.
// Header bytes arrive as latin1 characters (see auth/signed-bytes.ts), one per byte, and Node
// writes such characters back as the same bytes, so botocore's é (the byte E9) and a Go or Java
// client's é (C3 A9, UTF-8) each come back exactly as sent and decode as the client encoded
// them. A value that never was wire bytes (characters above U+00FF: text a POST form field or
// another backend supplied) is sent as its UTF-8 bytes. Only a value that cannot be a header at
// all (a control character other than tab) is sent as an RFC 2047 encoded word, as S3 does.
const SENDABLE = /^[\t\x20-\x7e\x80-\xff]*$/;
const ABOVE_LATIN1 = /[\u0100-\uffff]/;

/** `text` as its UTF-8 bytes, one latin1 character per byte (what Node writes back as those bytes). */
const utf8Bytes = (text: string): string => Buffer.from(text, 'utf8').toString('latin1');

export function metadataHeaderValue(value: string): string {
  const bytes = ABOVE_LATIN1.test(value) ? utf8Bytes(value) : value;
  // Still unsendable: it holds a control character.
  return SENDABLE.test(bytes) ? bytes : `=?UTF-8?B?${Buffer.from(value, 'utf8').toString('base64')}?=`;
}
