// Entry point: picks header SigV4 or SigV2, presigned SigV4 or SigV2, or anonymous access from
// what the request carries. Whether anonymous access is allowed is the router's decision, not
// this module's.
import { ANONYMOUS } from '@vgwrdma/backend-contract';
import { splitRawQuery } from './canonical-request.js';
import { parseContentSha256 } from './content-sha256.js';
import { authenticateHeader } from './header-auth.js';
import { authErrors } from './messages.js';
import { authenticatePresigned, decodeQuery } from './presigned-auth.js';
import { headerValue } from './request-headers.js';
import { authenticateHeaderV2, isV2Authorization } from './sigv2-header-auth.js';
import { authenticatePresignedV2 } from './sigv2-presigned-auth.js';
import type { AuthInput, AuthOptions, AuthResult, CredentialStore, PayloadMode } from './types.js';

/** Query parameters that mark a presigned request, SigV4 or SigV2. */
const V4_QUERY = ['X-Amz-Algorithm', 'X-Amz-Credential', 'X-Amz-Signature'];

export async function authenticate(
  input: AuthInput,
  store: CredentialStore,
  opts: AuthOptions,
): Promise<AuthResult> {
  const authorization = headerValue(input.headers, 'authorization');
  const query = decodeQuery(splitRawQuery(input.rawQuery));
  const presignedV4 = V4_QUERY.some((name) => query.has(name));
  // Expires alone is no mechanism (S3 reads it only beside the other two).
  const presignedV2 = query.has('AWSAccessKeyId') || query.has('Signature');

  if (authorization !== undefined && authorization.trim() !== '') {
    if (presignedV4 || query.has('Signature')) throw authErrors.bothMechanisms();
    return isV2Authorization(authorization)
      ? authenticateHeaderV2(input, authorization, store, opts)
      : authenticateHeader(input, authorization, store, opts);
  }
  if (presignedV4) return authenticatePresigned(input, query, store, opts);
  if (presignedV2) return authenticatePresignedV2(input, query, store);
  return {
    account: ANONYMOUS,
    anonymous: true,
    presigned: false,
    payload: anonymousPayload(input),
    accessKey: '',
    signedHeaders: [],
  };
}

/** An anonymous request may still declare how its body is framed; signed streaming needs a key. */
function anonymousPayload(input: AuthInput): PayloadMode {
  const claimed = headerValue(input.headers, 'x-amz-content-sha256')?.trim();
  if (claimed === undefined) return { kind: 'none' };
  const content = parseContentSha256(claimed);
  if (!content) throw authErrors.invalidContentSha256();
  if (content.kind === 'streaming-signed') throw authErrors.anonymousStreaming();
  return content;
}
