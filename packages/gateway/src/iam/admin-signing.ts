// How an admin API request must be signed: SigV4 in the Authorization header over a signed
// payload (x-amz-content-sha256 the body's SHA-256, or chunk signatures). Every other form leaves
// part of the request outside the signature, so one captured request could be replayed with
// another body or target: a presigned URL or UNSIGNED-PAYLOAD signs no body, an unsigned
// trailer's body is not signed either, and SigV2 signs neither the body nor `?access=`,
// `?owner=` or `?bucket=`. Under header SigV4 the whole query and every x-amz-* header are
// signed, and the 15-minute clock-skew window bounds a replay of the exact same request.
import { S3Error } from '@vgwrdma/backend-contract';
import type { AuthResult, PayloadMode } from '../auth/index.js';

/** Why a signed request is not good enough for the admin API, or undefined when it is. */
function weakness(auth: AuthResult): string | undefined {
  const signing = auth.signing;
  if (signing === undefined) return 'it is not signed';
  if (signing.version !== 'AWS4-HMAC-SHA256') return 'it is signed with Signature Version 2';
  if (signing.authType !== 'REST-HEADER') return 'it is a presigned URL';
  return PAYLOAD_WEAKNESS[auth.payload.kind];
}

/** Payload modes by whether their body is covered by the signature. */
const PAYLOAD_WEAKNESS: Readonly<Record<PayloadMode['kind'], string | undefined>> = {
  signed: undefined,
  'streaming-signed': undefined,
  unsigned: 'its payload is UNSIGNED-PAYLOAD',
  'streaming-unsigned-trailer': 'its payload is STREAMING-UNSIGNED-PAYLOAD-TRAILER',
  none: 'it declares no payload hash',
};

/** AccessDenied, saying why, unless the request is signed as the admin API requires. */
export function assertAdminSigning(auth: AuthResult): void {
  const why = weakness(auth);
  if (why === undefined) return;
  throw S3Error.custom(
    'AccessDenied',
    `The admin API accepts only requests signed with AWS Signature Version 4 in the Authorization ` +
      `header over a signed payload (x-amz-content-sha256 set to the body's SHA-256); ${why}.`,
  );
}
