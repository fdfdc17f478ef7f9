// SigV2 with the Authorization header (`AWS AccessKeyId:Signature`), as older SDKs, s3cmd and
// many appliances still sign. Checks, in S3's order: the header's form, the date (Date or
// x-amz-date; a missing, empty, unreadable or pre-1970 one is AccessDenied), the clock skew, the
// key, then the signature. (A plugin that needs SigV4 refuses SigV2 at its afterAuthenticate
// middleware, from the outcome's `signing.version`: cu-backend's RDMA edge does.)
import { parseV2Date } from './amz-date.js';
import { splitRawQuery } from './canonical-request.js';
import { parseContentSha256 } from './content-sha256.js';
import { authErrors } from './messages.js';
import { headerValue } from './request-headers.js';
import { signatureMatchesV2 } from './sigv2-signature.js';
import { canonicalAmzHeaders, canonicalResources, stringToSignV2 } from './sigv2-string-to-sign.js';
import type { AuthInput, AuthOptions, AuthResult, CredentialStore, PayloadMode } from './types.js';
import { DEFAULT_MAX_SKEW_MS } from './types.js';

const V2_PREFIX = 'AWS ';

/** Whether an Authorization header is SigV2's form (`AWS ...`), not SigV4's `AWS4-HMAC-SHA256 ...`. */
export function isV2Authorization(value: string): boolean {
  const trimmed = value.trim();
  return trimmed === 'AWS' || trimmed.startsWith(V2_PREFIX);
}

export interface V2Authorization {
  accessKey: string;
  signature: string;
}

/** Splits `AWS AK:signature`; InvalidArgument when either part is missing. */
export function parseV2Authorization(value: string): V2Authorization {
  const rest = value.trim().slice(V2_PREFIX.length).trim();
  const colon = rest.lastIndexOf(':');
  if (colon <= 0 || colon === rest.length - 1) throw authErrors.v2HeaderMalformed();
  return { accessKey: rest.slice(0, colon), signature: rest.slice(colon + 1) };
}

interface V2Time {
  date: Date;
  /** What the Date line of the StringToSign may hold. */
  dateLines: string[];
}

/**
 * x-amz-date, when present (even empty), is the request time; then S3 signs an empty Date line,
 * while botocore still signs the Date header's value there: both are accepted, the time being
 * x-amz-date either way.
 */
function requestTimeV2(input: AuthInput): V2Time {
  const amz = headerValue(input.headers, 'x-amz-date');
  const http = headerValue(input.headers, 'date');
  const text = amz ?? http;
  const date = text === undefined ? undefined : parseV2Date(text);
  if (!date) throw authErrors.missingDate();
  if (date.getTime() < 0) throw authErrors.v2DateBeforeEpoch();
  if (amz === undefined) return { date, dateLines: [(http ?? '').trim()] };
  return { date, dateLines: http === undefined ? [''] : ['', http.trim()] };
}

/**
 * SigV2 signs no payload hash. An x-amz-content-sha256 header is an x-amz-* header (signed
 * here): a hash in it is verified against the body; chunk signatures need SigV4's key.
 */
function payloadModeV2(input: AuthInput): PayloadMode {
  const claimed = headerValue(input.headers, 'x-amz-content-sha256')?.trim();
  if (claimed === undefined) return { kind: 'none' };
  const content = parseContentSha256(claimed);
  if (!content || content.kind === 'streaming-signed') throw authErrors.invalidContentSha256();
  return content;
}

export async function authenticateHeaderV2(
  input: AuthInput,
  authorization: string,
  store: CredentialStore,
  opts: AuthOptions,
): Promise<AuthResult> {
  const header = parseV2Authorization(authorization);
  const time = requestTimeV2(input);
  const now = input.now ?? new Date();
  if (Math.abs(now.getTime() - time.date.getTime()) > (opts.maxSkewMs ?? DEFAULT_MAX_SKEW_MS))
    throw authErrors.skewed();
  const payload = payloadModeV2(input);
  const claimed = headerValue(input.headers, 'x-amz-content-sha256')?.trim();

  const credential = await store.lookup(header.accessKey);
  if (!credential) throw authErrors.unknownKey();

  const amz = canonicalAmzHeaders(input.headers);
  const resources = canonicalResources(input.rawPath, splitRawQuery(input.rawQuery), input.virtualHostBucket);
  const method = input.method.toUpperCase();
  const candidates = time.dateLines.flatMap((dateLine) =>
    resources.map((resource) =>
      stringToSignV2({ method, headers: input.headers, dateLine, amzHeaders: amz.block, resource }),
    ),
  );
  if (!signatureMatchesV2(credential.secret, candidates, header.signature)) throw authErrors.badSignature();

  return {
    account: credential.account,
    anonymous: false,
    presigned: false,
    payload,
    accessKey: header.accessKey,
    signedHeaders: signedNames(input, amz.names),
    signing: {
      version: 'AWS',
      authType: 'REST-HEADER',
      signedAt: time.date,
      ...(claimed === undefined ? {} : { contentSha256: claimed }),
    },
  };
}

/** The headers a SigV2 signature covers: the standard three when present, every x-amz-*. */
export function signedNames(input: AuthInput, amzNames: readonly string[]): string[] {
  const standard = ['content-md5', 'content-type', 'date'].filter(
    (name) => headerValue(input.headers, name) !== undefined,
  );
  return [...standard, ...amzNames];
}
