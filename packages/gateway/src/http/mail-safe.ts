// Metadata values on the way out, made mail-safe as S3 does (RFC 2047): a value that is not
// printable ASCII is sent as `=?UTF-8?B?<base64>?=`. Header bytes arrive as latin1 characters
// (see auth/signed-bytes.ts); the bytes a client sent are read as UTF-8 when they are valid
// UTF-8 (a Go or Java client's é is C3 A9) and as latin1 otherwise (botocore's é is E9), so
// either client gets é back once it decodes the word. The value on the wire is then always
// ASCII: Node would otherwise write it as UTF-8 or latin1 depending on how the body is written.
const PRINTABLE_ASCII = /^[\t\x20-\x7e]*$/;

const ABOVE_LATIN1 = /[\u0100-\uffff]/;

const utf8 = new TextDecoder('utf-8', { fatal: true });

function textOf(bytes: Buffer): string {
  try {
    return utf8.decode(bytes);
  } catch {
    return bytes.toString('latin1');
  }
}

export function mailSafeHeaderValue(value: string): string {
  if (PRINTABLE_ASCII.test(value)) return value;
  // Characters above U+00FF never come off the wire; a value holding one is already text.
  const text = ABOVE_LATIN1.test(value) ? value : textOf(Buffer.from(value, 'latin1'));
  return `=?UTF-8?B?${Buffer.from(text, 'utf8').toString('base64')}?=`;
}
