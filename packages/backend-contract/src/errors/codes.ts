// The error table: every S3 error code this project can answer, with its HTTP status and the
// exact message variants clients compare against.
import { CATALOGUE } from './catalogue.generated.js';
import { EXTRA_CODES } from './extra-codes.js';

export const ERROR_TABLE = { ...CATALOGUE, ...EXTRA_CODES } as const;
type Table = typeof ERROR_TABLE;

export type S3ErrorCode = keyof Table;
/** The message variants of one code, as a string-literal union. */
export type S3ErrorMessage<C extends S3ErrorCode> = Table[C]['messages'][number];

/**
 * Where a code has several variants, the one used when the caller names none. Codes with one
 * message use it.
 */
const DEFAULT_VARIANT: { [C in S3ErrorCode]?: S3ErrorMessage<C> } = {
  AccessDenied: 'Access Denied.',
  BadRequest: 'An error occurred when parsing the HTTP request.',
  InvalidRequest: 'Invalid Request.',
  IncompleteBody: 'You did not provide the number of bytes specified by the Content-Length HTTP header',
  BucketNotEmpty: 'The bucket you tried to delete is not empty.',
  AccessControlListNotSupported: 'The bucket does not allow ACLs.',
};

/**
 * The two catalogue codes whose variants answer different statuses (the generated table keeps
 * one status per code, that of its first entry). Checked against data/s3-errors.json by
 * errors.test.ts, so a catalogue change cannot leave this stale unnoticed.
 */
const VARIANT_STATUS: { [C in S3ErrorCode]?: Partial<Record<S3ErrorMessage<C>, number>> } = {
  InvalidBucketState: {
    "Versioning must be 'Enabled' on the bucket to apply a Object Lock configuration": 409,
  },
  XAdminInvalidArgument: { "User role has to be one of the following: 'user', 'admin', 'userplus'.": 400 },
};

/** The HTTP status of `code`, or of one of its message variants where the variants differ. */
export function statusOf<C extends S3ErrorCode>(code: C, message?: string): number {
  const byVariant = VARIANT_STATUS[code] as Record<string, number> | undefined;
  return (message !== undefined ? byVariant?.[message] : undefined) ?? ERROR_TABLE[code].status;
}

export function defaultMessage<C extends S3ErrorCode>(code: C): S3ErrorMessage<C> {
  const preferred = DEFAULT_VARIANT[code];
  return (preferred ?? ERROR_TABLE[code].messages[0]) as S3ErrorMessage<C>;
}

export function isS3ErrorCode(code: string): code is S3ErrorCode {
  return Object.hasOwn(ERROR_TABLE, code);
}
