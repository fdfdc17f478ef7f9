// SigV4 presigned URLs: the credential, date, lifetime, signed headers and signature travel in
// the query. The payload is UNSIGNED-PAYLOAD unless the URL itself names a hash.
import { parseAmzDate } from './amz-date.js';
import {
  canonicalHeaders,
  canonicalQueries,
  canonicalUris,
  type RawQueryParam,
} from './canonical-request.js';
import { parseContentSha256, UNSIGNED_PAYLOAD } from './content-sha256.js';
import { parseCredential } from './credential-scope.js';
import { authErrors } from './messages.js';
import { PRESIGNED_MAY_BE_UNSIGNED, unsignedHeaders } from './signed-headers.js';
import { ALGORITHM, signingKey } from './signing.js';
import type { AuthInput, AuthOptions, AuthResult, CredentialStore } from './types.js';
import { DEFAULT_MAX_SKEW_MS, MAX_PRESIGN_SECONDS } from './types.js';
import { uriDecode } from './uri-encoding.js';
import { signatureMatches } from './verify-signature.js';

const REQUIRED = [
  'X-Amz-Algorithm',
  'X-Amz-Credential',
  'X-Amz-Signature',
  'X-Amz-Date',
  'X-Amz-SignedHeaders',
  'X-Amz-Expires',
] as const;
type Required = (typeof REQUIRED)[number];

/** Decoded query parameters by name (first occurrence wins, as in S3). */
export function decodeQuery(params: readonly RawQueryParam[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const { name, value } of params) {
    const decoded = uriDecode(name, false).toString('utf8');
    if (!out.has(decoded)) out.set(decoded, uriDecode(value, false).toString('utf8'));
  }
  return out;
}

const DIGITS = /^-?\d+$/;

function parseExpires(text: string, limit: number): number {
  if (!DIGITS.test(text)) throw authErrors.queryExpiresNotNumber();
  const seconds = Number(text);
  if (seconds < 0) throw authErrors.queryExpiresNegative();
  if (seconds > limit) throw authErrors.queryExpiresTooLarge();
  return seconds;
}

export async function authenticatePresigned(
  input: AuthInput,
  query: Map<string, string>,
  store: CredentialStore,
  opts: AuthOptions,
): Promise<AuthResult> {
  const algorithm = query.get('X-Amz-Algorithm');
  if (algorithm !== undefined && algorithm !== ALGORITHM) throw authErrors.unsupportedMechanism();
  const p = {} as Record<Required, string>;
  for (const name of REQUIRED) {
    const value = query.get(name);
    if (value === undefined) throw authErrors.queryMissingParams();
    p[name] = value;
  }

  const limit = Math.min(opts.maxPresignSeconds ?? MAX_PRESIGN_SECONDS, MAX_PRESIGN_SECONDS);
  const expires = parseExpires(p['X-Amz-Expires'], limit);
  const scope = parseCredential(p['X-Amz-Credential'], 'query', opts.region, opts.service ?? 's3');
  const date = parseAmzDate(p['X-Amz-Date']);
  if (!date) throw authErrors.queryBadDate();

  const now = (input.now ?? new Date()).getTime();
  if (date.getTime() - now > (opts.maxSkewMs ?? DEFAULT_MAX_SKEW_MS)) throw authErrors.notYetValid();
  if (now > date.getTime() + expires * 1000) throw authErrors.expired();

  const credential = await store.lookup(scope.accessKey);
  if (!credential) throw authErrors.unknownKey();

  const claimed = query.get('X-Amz-Content-Sha256') ?? UNSIGNED_PAYLOAD;
  const content = parseContentSha256(claimed);
  // A presigned URL cannot carry chunk signatures: its body is plain or covered by a hash.
  if (!content || (content.kind !== 'unsigned' && content.kind !== 'signed'))
    throw authErrors.invalidContentSha256();

  const signedHeaders = p['X-Amz-SignedHeaders'].split(';');
  const headers = canonicalHeaders(input.headers, signedHeaders);
  if (headers === undefined) throw authErrors.badSignature();
  const ok =
    p['X-Amz-Date'].slice(0, 8) === scope.date &&
    signatureMatches({
      method: input.method.toUpperCase(),
      uris: canonicalUris(input.rawPath),
      queries: canonicalQueries(input.rawQuery, 'X-Amz-Signature'),
      headers,
      signedHeaders: p['X-Amz-SignedHeaders'],
      payloadHash: claimed,
      amzDate: p['X-Amz-Date'],
      scope: scope.scope,
      key: signingKey(credential.secret, scope.date, scope.region, scope.service),
      signature: p['X-Amz-Signature'],
    });
  if (!ok) throw authErrors.badSignature();
  // The URL's holder is not its signer: a header it adds must not act with the signer's
  // authority (x-amz-copy-source, x-amz-meta-*, a plugin's own request headers ...).
  const unsigned = unsignedHeaders(
    input.headers,
    signedHeaders,
    PRESIGNED_MAY_BE_UNSIGNED,
    opts.signedHeaderPrefixes,
  );
  if (unsigned.length > 0) throw authErrors.headersNotSigned(unsigned);

  return {
    account: credential.account,
    anonymous: false,
    presigned: true,
    payload: content,
    accessKey: scope.accessKey,
    signedHeaders,
    signing: { version: ALGORITHM, authType: 'REST-QUERY-STRING', signedAt: date, contentSha256: claimed },
  };
}
