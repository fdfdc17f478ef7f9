// SigV2 presigned URLs: `?AWSAccessKeyId=...&Expires=<epoch seconds>&Signature=...`. The Expires
// value takes the Date line's place in the StringToSign. botocore moves the signed x-amz-*
// headers, Content-MD5 and Content-Type into the query; those count when not sent as headers.
import { splitRawQuery } from './canonical-request.js';
import { UNSIGNED_PAYLOAD } from './content-sha256.js';
import { authErrors } from './messages.js';
import { signedNames } from './sigv2-header-auth.js';
import { signatureMatchesV2 } from './sigv2-signature.js';
import { canonicalAmzHeaders, canonicalResources, stringToSignV2 } from './sigv2-string-to-sign.js';
import type { AuthInput, AuthResult, CredentialStore } from './types.js';

const EPOCH_SECONDS = /^\d{1,12}$/;

export async function authenticatePresignedV2(
  input: AuthInput,
  query: ReadonlyMap<string, string>,
  store: CredentialStore,
): Promise<AuthResult> {
  const accessKey = query.get('AWSAccessKeyId');
  const signature = query.get('Signature');
  const expires = query.get('Expires');
  if (accessKey === undefined || signature === undefined || expires === undefined)
    throw authErrors.v2QueryMissingParams();
  if (!EPOCH_SECONDS.test(expires)) throw authErrors.v2QueryBadExpires(expires);
  const now = (input.now ?? new Date()).getTime();
  if (now > Number(expires) * 1000) throw authErrors.expired();

  const credential = await store.lookup(accessKey);
  if (!credential) throw authErrors.unknownKey();

  const amz = canonicalAmzHeaders(input.headers, query);
  const candidates = canonicalResources(
    input.rawPath,
    splitRawQuery(input.rawQuery),
    input.virtualHostBucket,
  ).map((resource) =>
    stringToSignV2({
      method: input.method.toUpperCase(),
      headers: input.headers,
      dateLine: expires,
      amzHeaders: amz.block,
      resource,
      fromQuery: query,
    }),
  );
  if (!signatureMatchesV2(credential.secret, candidates, signature)) throw authErrors.badSignature();

  return {
    account: credential.account,
    anonymous: false,
    presigned: true,
    // A presigned URL signs no body: it is stored as sent (Content-MD5 still checked).
    payload: { kind: 'unsigned' },
    accessKey,
    signedHeaders: signedNames(input, amz.names),
    // A SigV2 URL names its expiry, not when it was signed; its body is never signed.
    signing: { version: 'AWS', authType: 'REST-QUERY-STRING', contentSha256: UNSIGNED_PAYLOAD },
  };
}
