// Error texts S3 sends for SigV4 and SigV2 failures that the catalogue (data/s3-errors.json) lists under no code (they
// name the offending value). Kept in one table so every auth module throws the same words.
import { S3Error, type S3ErrorCode } from '@vgwrdma/backend-contract';

const HEADER_PREFIX = 'The authorization header is malformed; ';
const CREDENTIAL_PREFIX = 'Error parsing the X-Amz-Credential parameter; ';

/** A credential scope's wrong region, service or terminal: the same words in both forms. */
function scopeErrors(code: S3ErrorCode, prefix: string) {
  return {
    wrongRegion: (got: string, want: string) =>
      S3Error.custom(code, `${prefix}the region '${got}' is wrong; expecting '${want}'`),
    wrongService: (got: string, want: string) =>
      S3Error.custom(code, `${prefix}incorrect service "${got}". This endpoint belongs to "${want}".`),
    wrongTerminal: (got: string) =>
      S3Error.custom(code, `${prefix}incorrect terminal "${got}". This endpoint uses "aws4_request".`),
  };
}
const HEADER_SCOPE = scopeErrors('AuthorizationHeaderMalformed', HEADER_PREFIX);
const QUERY_SCOPE = scopeErrors('AuthorizationQueryParametersError', CREDENTIAL_PREFIX);

export const authErrors = {
  unsupportedMechanism: () =>
    new S3Error(
      'InvalidRequest',
      'The authorization mechanism you have provided is not supported. Please use AWS4-HMAC-SHA256.',
    ),
  missingContentSha256: () =>
    new S3Error('InvalidRequest', 'Missing required header for this request: x-amz-content-sha256'),
  invalidContentSha256: () =>
    new S3Error('InvalidRequest', 'The value of x-amz-content-sha256 header is invalid.'),
  anonymousStreaming: () =>
    new S3Error(
      'InvalidRequest',
      "Anonymous requests don't support this x-amz-content-sha256 value. Please use UNSIGNED-PAYLOAD or STREAMING-UNSIGNED-PAYLOAD-TRAILER.",
    ),
  missingDate: () =>
    new S3Error('AccessDenied', 'AWS authentication requires a valid Date or x-amz-date header.'),
  skewed: () => new S3Error('RequestTimeTooSkewed'),
  headersNotSigned: (names: readonly string[]) =>
    S3Error.custom('AccessDenied', 'There were headers present in the request which were not signed', {
      detail: { HeadersNotSigned: names.join(', ') },
    }),
  unknownKey: () => new S3Error('InvalidAccessKeyId'),
  badSignature: () => new S3Error('SignatureDoesNotMatch'),
  expired: () => new S3Error('AccessDenied', 'Request has expired.'),
  notYetValid: () => new S3Error('AccessDenied', 'Request is not valid yet.'),
  bothMechanisms: () =>
    S3Error.custom(
      'InvalidArgument',
      'Only one auth mechanism allowed; only the X-Amz-Algorithm query parameter, Signature query string parameter or the Authorization header should be specified',
    ),

  // Authorization header form.
  headerMalformedCredential: () => new S3Error('AuthorizationHeaderMalformed'),
  headerMissingComponents: () =>
    S3Error.custom(
      'AuthorizationHeaderMalformed',
      `${HEADER_PREFIX}the authorization header requires three components: Credential, SignedHeaders, and Signature.`,
    ),
  headerWrongRegion: HEADER_SCOPE.wrongRegion,
  headerWrongService: HEADER_SCOPE.wrongService,
  headerWrongTerminal: HEADER_SCOPE.wrongTerminal,
  headerWrongDate: () =>
    S3Error.custom(
      'AuthorizationHeaderMalformed',
      `${HEADER_PREFIX}Invalid credential date. Date is not the same as X-Amz-Date.`,
    ),

  // Presigned (query string) form.
  queryMissingParams: () =>
    new S3Error(
      'AuthorizationQueryParametersError',
      'Query-string authentication version 4 requires the X-Amz-Algorithm, X-Amz-Credential, X-Amz-Signature, X-Amz-Date, X-Amz-SignedHeaders, and X-Amz-Expires parameters.',
    ),
  // A lifetime out of range is refused as AWS does: 403 AccessDenied (not 400), with its words.
  queryExpiresTooLarge: () =>
    S3Error.custom(
      'AccessDenied',
      'X-Amz-Expires must be less than a week (in seconds) that is; the maximum expires is 604800 seconds.',
    ),
  queryExpiresNegative: () => S3Error.custom('AccessDenied', 'X-Amz-Expires must be non-negative'),
  queryExpiresNotNumber: () =>
    S3Error.custom('AuthorizationQueryParametersError', 'X-Amz-Expires should be a number'),
  queryBadDate: () =>
    S3Error.custom(
      'AuthorizationQueryParametersError',
      `X-Amz-Date must be in the ISO8601 Long Format "yyyyMMdd'T'HHmmss'Z'"`,
    ),
  queryMalformedCredential: () =>
    S3Error.custom(
      'AuthorizationQueryParametersError',
      `${CREDENTIAL_PREFIX}the Credential is mal-formed; expecting "<YOUR-AKID>/YYYYMMDD/REGION/SERVICE/aws4_request".`,
    ),
  queryWrongRegion: QUERY_SCOPE.wrongRegion,
  queryWrongService: QUERY_SCOPE.wrongService,
  queryWrongTerminal: QUERY_SCOPE.wrongTerminal,

  // Signature Version 2 (`Authorization: AWS AK:sig`, `?AWSAccessKeyId=&Expires=&Signature=`).
  v2HeaderMalformed: () =>
    S3Error.custom(
      'InvalidArgument',
      'AWS authorization header is invalid.  Expected AwsAccessKeyId:signature',
    ),
  v2DateBeforeEpoch: () =>
    S3Error.custom('AccessDenied', 'AWS authentication requires a valid Date or x-amz-date header.'),
  v2QueryMissingParams: () =>
    S3Error.custom(
      'AccessDenied',
      'Query-string authentication requires the Signature, Expires and AWSAccessKeyId parameters',
    ),
  v2QueryBadExpires: (value: string) =>
    S3Error.custom('AccessDenied', `Invalid date (should be seconds since epoch): ${value}`),
} as const;
