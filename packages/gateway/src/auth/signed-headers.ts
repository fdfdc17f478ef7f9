// Which request headers the signature must cover, for header and presigned SigV4 alike. S3
// refuses a request that carries an x-amz-* header outside SignedHeaders ("There were headers
// present in the request which were not signed"): otherwise anyone holding a signed request or a
// presigned URL could add one (x-amz-copy-source, x-amz-acl, x-amz-meta-*, x-amz-tagging, lock
// and bypass headers ...) and act with the signer's authority. The same rule covers `host`, which
// S3 requires among the signed headers, and the header prefixes a plugin declares
// (GatewayPlugin.signedHeaderPrefixes: headers outside x-amz-* that the plugin acts on).
import type { RequestHeaders } from './types.js';

const MUST_SIGN_PREFIXES: readonly string[] = ['x-amz-'];
const NO_PREFIXES: readonly string[] = [];

/** Lower-case header names that must be signed when present: x-amz-*, and any of `extraPrefixes`. */
export function mustBeSigned(name: string, extraPrefixes: readonly string[] = NO_PREFIXES): boolean {
  return (
    MUST_SIGN_PREFIXES.some((prefix) => name.startsWith(prefix)) ||
    extraPrefixes.some((prefix) => name.startsWith(prefix))
  );
}

/**
 * The headers a presigned URL may carry without signing them: only x-amz-content-sha256. S3
 * accepts it unsigned, and for a presigned URL the gateway never reads it: the payload mode comes
 * from the X-Amz-Content-Sha256 query parameter (signed as part of the query) or is
 * UNSIGNED-PAYLOAD. x-amz-date is not on the list: the time is the signed X-Amz-Date parameter,
 * and S3 documents that every x-amz-* header the request will carry must be signed.
 */
export const PRESIGNED_MAY_BE_UNSIGNED: ReadonlySet<string> = new Set(['x-amz-content-sha256']);

const NONE: ReadonlySet<string> = new Set();

/**
 * The names S3 would list in HeadersNotSigned: `host` when it is not among the signed headers
 * (present or not: S3 requires it), then every present header that must be signed (x-amz-*, or
 * under one of `extraPrefixes`) and is not, apart from `allowed`. Empty when the request is fine.
 */
export function unsignedHeaders(
  headers: RequestHeaders,
  signedHeaders: readonly string[],
  allowed: ReadonlySet<string> = NONE,
  extraPrefixes: readonly string[] = NO_PREFIXES,
): string[] {
  const signed = new Set(signedHeaders);
  const out = signed.has('host') ? [] : ['host'];
  for (const name of Object.keys(headers)) {
    if (
      headers[name] !== undefined &&
      mustBeSigned(name, extraPrefixes) &&
      !signed.has(name) &&
      !allowed.has(name)
    )
      out.push(name);
  }
  return out;
}
