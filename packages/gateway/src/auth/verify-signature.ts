// Computes the expected signature for each canonical-URI/query reading of the request and
// accepts the request when any of them equals the one sent (at most four HMAC rounds, eight when
// header values are not ASCII: see signed-bytes.ts).
import { type CanonicalParts, canonicalRequest } from './canonical-request.js';
import { signedByteReadings } from './signed-bytes.js';
import { ALGORITHM, hmacHex, sha256Hex, signaturesEqual } from './signing.js';

interface SignatureCheck {
  method: string;
  uris: readonly string[];
  queries: readonly string[];
  headers: string;
  signedHeaders: string;
  payloadHash: string;
  amzDate: string;
  scope: string;
  key: Buffer;
  signature: string;
}

export function signatureMatches(c: SignatureCheck): boolean {
  let matched = false;
  for (const uri of c.uris) {
    for (const query of c.queries) {
      const parts: CanonicalParts = {
        method: c.method,
        uri,
        query,
        headers: c.headers,
        signedHeaders: c.signedHeaders,
        payloadHash: c.payloadHash,
      };
      // Non-ASCII header values (metadata): the wire bytes, then their UTF-8 re-encoding.
      for (const bytes of signedByteReadings(canonicalRequest(parts))) {
        const stringToSign = `${ALGORITHM}\n${c.amzDate}\n${c.scope}\n${sha256Hex(bytes)}`;
        // Every candidate is computed and compared, so timing does not reveal which one matched.
        if (signaturesEqual(hmacHex(c.key, stringToSign), c.signature)) matched = true;
      }
    }
  }
  return matched;
}
