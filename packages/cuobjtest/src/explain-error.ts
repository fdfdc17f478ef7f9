// What went wrong, in words a user can act on: an S3 error as "<HTTP status> <S3 code>: <likely
// cause and what to check>". HEAD answers carry no body, so the SDK can only say `UnknownError`
// (or `Forbidden`, `BadRequest`) for them; the status and the request (the bucket name) tell the
// likely cause instead. Connection and TLS failures name the endpoint and what to pass.

/** The S3 codes a cuobjtest run meets, with what to check. */
const CAUSES: Readonly<Record<string, string>> = {
  SignatureDoesNotMatch: 'check -secret / AWS_SECRET_ACCESS_KEY',
  InvalidAccessKeyId: "check -access / AWS_ACCESS_KEY_ID (npm start's gateway uses vgwrdma)",
  InvalidBucketName:
    'check -bucket: 3 to 63 lowercase letters, digits, dots and hyphens, starting and ending with a letter or digit',
  AccessDenied: 'the account may not use this bucket: check -access, or the bucket policy/ACL',
  NoSuchBucket: 'check -bucket',
  RequestTimeTooSkewed: "the client's clock differs from the gateway's by more than 15 minutes",
};

/** Node's codes for a certificate that could not be verified. */
const UNTRUSTED = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

const BUCKET_NAME = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

interface SdkError {
  readonly name?: string;
  readonly code?: string;
  readonly message?: string;
  readonly cause?: unknown;
  readonly $metadata?: { readonly httpStatusCode?: number };
}

/** The request the error answered: enough to infer a cause for a body-less answer. */
export interface ErrorContext {
  readonly endpoint: string;
  readonly bucket: string;
}

/** The S3 code a body-less answer most likely meant, from its status and the request. */
function inferCode(status: number, ctx: ErrorContext): string | undefined {
  if (status === 400 && !BUCKET_NAME.test(ctx.bucket)) return 'InvalidBucketName';
  if (status === 403) return undefined; // a wrong key and a wrong secret look alike here
  if (status === 404) return 'NoSuchBucket';
  return undefined;
}

/** One line for `err`. */
export function explainError(err: unknown, ctx: ErrorContext): string {
  const e = (err ?? {}) as SdkError;
  const netCode = e.code ?? (e.cause as SdkError | undefined)?.code;
  if (netCode !== undefined && UNTRUSTED.has(netCode)) {
    return `${ctx.endpoint}: certificate not trusted (${netCode}): pass -ca-bundle FILE (or set AWS_CA_BUNDLE) with the CA that signed it`;
  }
  if (netCode === 'ECONNREFUSED' || netCode === 'ENOTFOUND' || netCode === 'EHOSTUNREACH') {
    return `${ctx.endpoint}: ${netCode}: is the gateway running there? (check -endpoint)`;
  }
  const status = e.$metadata?.httpStatusCode;
  if (status === undefined) return e.message ?? String(err);
  const named = e.name !== undefined && CAUSES[e.name] !== undefined ? e.name : undefined;
  const code = named ?? inferCode(status, ctx);
  if (code !== undefined) return `${status} ${code}: ${CAUSES[code]}`;
  if (status === 403) {
    return (
      '403 Forbidden (a HEAD answer has no error body): InvalidAccessKeyId or SignatureDoesNotMatch: ' +
      'check -access / AWS_ACCESS_KEY_ID and -secret / AWS_SECRET_ACCESS_KEY'
    );
  }
  const name = e.name && e.name !== 'UnknownError' ? e.name : 'error';
  return `${status} ${name}${e.message && e.message !== 'UnknownError' ? `: ${e.message}` : ''}`;
}
