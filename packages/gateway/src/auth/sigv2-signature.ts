// SigV2's signature: base64(HMAC-SHA1(secret, StringToSign)), compared in constant time against
// every candidate string (date-line readings, wire-byte and UTF-8 readings of non-ASCII values).
import { createHmac, timingSafeEqual } from 'node:crypto';
import { signedByteReadings } from './signed-bytes.js';

const BASE64_SHA1 = /^[A-Za-z0-9+/]{27}=$/;

export function signatureV2(secret: string, data: string | Uint8Array): Buffer {
  return createHmac('sha1', secret).update(data).digest();
}

export function signatureMatchesV2(secret: string, candidates: readonly string[], given: string): boolean {
  if (!BASE64_SHA1.test(given)) return false;
  const sent = Buffer.from(given, 'base64');
  let matched = false;
  for (const text of candidates) {
    for (const bytes of signedByteReadings(text)) {
      // Every candidate is computed and compared, so timing does not reveal which one matched.
      if (timingSafeEqual(signatureV2(secret, bytes), sent)) matched = true;
    }
  }
  return matched;
}
