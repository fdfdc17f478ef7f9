// S3 error codes that real S3 returns but the shared catalogue does not list. They are kept
// apart so the generated catalogue stays an exact copy of shared/data/s3-errors.json.
export const EXTRA_CODES = {
  InvalidArgument: { status: 400, messages: ['Invalid Argument'] },
  AuthorizationHeaderMalformed: {
    status: 400,
    messages: ['The authorization header is malformed; the Credential is mal-formed.'],
  },
  AuthorizationQueryParametersError: {
    status: 400,
    messages: [
      'Query-string authentication version 4 requires the X-Amz-Algorithm, X-Amz-Credential, X-Amz-Signature, X-Amz-Date, X-Amz-SignedHeaders, and X-Amz-Expires parameters.',
      'X-Amz-Expires must be less than a week (in seconds) that is; the maximum expires is 604800 seconds.',
      'X-Amz-Expires must be non-negative',
    ],
  },
  MissingFields: { status: 400, messages: ['Missing fields in request.'] },
  RequestTimeout: {
    status: 400,
    messages: [
      'Your socket connection to the server was not read from or written to within the timeout period.',
    ],
  },
} as const;
