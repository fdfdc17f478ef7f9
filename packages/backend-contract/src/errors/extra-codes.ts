// S3 error codes that real S3 returns but the catalogue (data/s3-errors.json) does not list. They are kept
// apart so the generated catalogue stays an exact copy of data/s3-errors.json.
export const EXTRA_CODES = {
  /** 'Invalid id': an ACL grant to a canonical id that is no account. */
  InvalidArgument: { status: 400, messages: ['Invalid Argument', 'Invalid id'] },
  /** An ACL grant by e-mail address that no account has. */
  UnresolvableGrantByEmailAddress: {
    status: 400,
    messages: ['The e-mail address you provided does not match any account on record.'],
  },
  /** Get/DeletePublicAccessBlock on a bucket that has none. */
  NoSuchPublicAccessBlockConfiguration: {
    status: 404,
    messages: ['The public access block configuration was not found'],
  },
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
  MalformedPolicy: {
    status: 400,
    messages: [
      "Policies must be valid JSON and the first byte must be '{'",
      'Missing required field Statement',
      'Missing required field Effect',
      'Missing required field Principal',
      'Missing required field Action',
      'Missing required field Resource',
      'Invalid effect',
      'Invalid principal in policy',
      'Policy has invalid action',
      'Policy has invalid resource',
      'Action does not apply to any resource(s) in statement',
      'Invalid Condition operator',
      'Invalid policy version',
      'Unknown field in policy',
    ],
  },
  MissingFields: { status: 400, messages: ['Missing fields in request.'] },
  /** PutBucketPolicy with a document over AWS's 20 KB bucket-policy limit. */
  PolicyTooLarge: { status: 400, messages: ['Policy exceeds the maximum allowed document size.'] },
  /** POST object: the form's policy document is not valid (S3 names the problem after "Invalid Policy: "). */
  InvalidPolicyDocument: { status: 400, messages: ['Invalid Policy: Invalid JSON.'] },
  /** PutObjectLockConfiguration with a DefaultRetention of zero or fewer days/years. */
  InvalidRetentionPeriod: {
    status: 400,
    messages: ['Default retention period must be a positive integer value.'],
  },
  RequestTimeout: {
    status: 400,
    messages: [
      'Your socket connection to the server was not read from or written to within the timeout period.',
    ],
  },
} as const;
