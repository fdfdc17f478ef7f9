// SigV4 with the Authorization header: parse it, check the scope, the clock and the payload
// claim, then recompute the signature from the raw request.
import { formatAmzDate, parseAmzDate, parseHttpDate } from './amz-date.js';
import { canonicalHeaders, canonicalQueries, canonicalUris } from './canonical-request.js';
import { parseContentSha256 } from './content-sha256.js';
import { parseCredential } from './credential-scope.js';
import { authErrors } from './messages.js';
import { headerValue } from './request-headers.js';
import { unsignedHeaders } from './signed-headers.js';
import { ALGORITHM, signingKey } from './signing.js';
import type { AuthInput, AuthOptions, AuthResult, CredentialStore, PayloadMode } from './types.js';
import { DEFAULT_MAX_SKEW_MS } from './types.js';
import { signatureMatches } from './verify-signature.js';

interface AuthorizationHeader {
  credential: string;
  signedHeaders: string[];
  signature: string;
}

/** Splits `AWS4-HMAC-SHA256 Credential=..., SignedHeaders=..., Signature=...`. */
export function parseAuthorizationHeader(value: string): AuthorizationHeader {
  const trimmed = value.trim();
  const space = trimmed.indexOf(' ');
  const algorithm = space < 0 ? trimmed : trimmed.slice(0, space);
  if (algorithm !== ALGORITHM) throw authErrors.unsupportedMechanism();
  const fields = new Map<string, string>();
  for (const component of trimmed.slice(space + 1).split(',')) {
    const eq = component.indexOf('=');
    if (eq < 0) continue;
    fields.set(component.slice(0, eq).trim(), component.slice(eq + 1).trim());
  }
  const credential = fields.get('Credential');
  const signedHeaders = fields.get('SignedHeaders');
  const signature = fields.get('Signature');
  if (space < 0 || credential === undefined || signedHeaders === undefined || signature === undefined) {
    throw authErrors.headerMissingComponents();
  }
  if (signedHeaders === '') throw authErrors.headerMissingComponents();
  return { credential, signedHeaders: signedHeaders.split(';'), signature };
}

/** The request time and the literal that goes into the string to sign. */
function requestTime(input: AuthInput): { date: Date; amzDate: string } {
  const amz = headerValue(input.headers, 'x-amz-date');
  if (amz !== undefined) {
    const date = parseAmzDate(amz.trim());
    if (!date) throw authErrors.missingDate();
    return { date, amzDate: amz.trim() };
  }
  const http = headerValue(input.headers, 'date');
  const date = http === undefined ? undefined : parseHttpDate(http);
  if (!date) throw authErrors.missingDate();
  return { date, amzDate: formatAmzDate(date) };
}

export async function authenticateHeader(
  input: AuthInput,
  authorization: string,
  store: CredentialStore,
  opts: AuthOptions,
): Promise<AuthResult> {
  const header = parseAuthorizationHeader(authorization);
  const scope = parseCredential(header.credential, 'header', opts.region, opts.service ?? 's3');

  const claimed = headerValue(input.headers, 'x-amz-content-sha256')?.trim();
  if (claimed === undefined) throw authErrors.missingContentSha256();
  const content = parseContentSha256(claimed);
  if (!content) throw authErrors.invalidContentSha256();

  const { date, amzDate } = requestTime(input);
  if (amzDate.slice(0, 8) !== scope.date) throw authErrors.headerWrongDate();
  const now = input.now ?? new Date();
  if (Math.abs(now.getTime() - date.getTime()) > (opts.maxSkewMs ?? DEFAULT_MAX_SKEW_MS))
    throw authErrors.skewed();

  const credential = await store.lookup(scope.accessKey);
  if (!credential) throw authErrors.unknownKey();

  const headers = canonicalHeaders(input.headers, header.signedHeaders);
  if (headers === undefined) throw authErrors.badSignature();
  const key = signingKey(credential.secret, scope.date, scope.region, scope.service);
  const ok = signatureMatches({
    method: input.method.toUpperCase(),
    uris: canonicalUris(input.rawPath),
    queries: canonicalQueries(input.rawQuery),
    headers,
    signedHeaders: header.signedHeaders.join(';'),
    payloadHash: claimed,
    amzDate,
    scope: scope.scope,
    key,
    signature: header.signature,
  });
  if (!ok) throw authErrors.badSignature();
  // As S3: host and every x-amz-* header (and those under a plugin's declared prefixes) must be
  // signed, or anyone replaying the request inside the skew window could add one (x-amz-acl:
  // public-read, x-amz-meta-*, a plugin's own request headers ...).
  const unsigned = unsignedHeaders(input.headers, header.signedHeaders, undefined, opts.signedHeaderPrefixes);
  if (unsigned.length > 0) throw authErrors.headersNotSigned(unsigned);

  const payload: PayloadMode =
    content.kind === 'streaming-signed'
      ? {
          kind: 'streaming-signed',
          trailer: content.trailer,
          seedSignature: header.signature,
          signingKey: key,
          amzDate,
          scope: scope.scope,
        }
      : content;
  return {
    account: credential.account,
    anonymous: false,
    presigned: false,
    payload,
    accessKey: scope.accessKey,
    signedHeaders: header.signedHeaders,
    signing: { version: ALGORITHM, authType: 'REST-HEADER', signedAt: date, contentSha256: claimed },
  };
}
