// The bytes a signature is computed over, when the signed text holds request header values.
// Node decodes header bytes as latin1, one character per byte, so the text can be turned back
// into exactly the bytes that came off the wire. S3 signs those bytes, which is what a client
// that sends UTF-8 metadata values as they are (Go, Java, curl) signs too. Clients that hash
// the value's UTF-8 form but send it as latin1 (botocore, the JS SDK on Node, for é and the rest
// of latin1) signed the text's UTF-8 encoding instead. Both readings are computed from the same
// received bytes, so accepting either lets no header change unnoticed.

/** The readings to try, wire bytes first; a single one when the text is ASCII. */
export function signedByteReadings(text: string): Buffer[] {
  const utf8 = Buffer.from(text, 'utf8');
  return utf8.length !== text.length ? [Buffer.from(text, 'latin1'), utf8] : [utf8];
}
