// Upstream errors → S3Error: the code the upstream named when it is one of ours (with its message
// when that is a catalogue variant), a table of SDK-side names that differ, and a table by HTTP
// status for answers without a body (HEAD, 304) or with a code we do not know. Anything that is
// not an HTTP answer (refused connection, reset socket) is an InternalError carrying the cause.
import {
  ERROR_TABLE,
  isS3Error,
  isS3ErrorCode,
  S3Error,
  type S3ErrorCode,
  type S3ErrorMessage,
  statusOf,
} from '@vgwrdma/backend-contract';

/** What the failed call addressed: decides what a bare 404 means. */
export type ErrorScope = 'bucket' | 'object' | 'upload';

/** Names the SDK gives errors that differ from the S3 code we answer. */
const NAME_TABLE: Readonly<Record<string, S3ErrorCode>> = {
  Forbidden: 'AccessDenied',
  ServiceUnavailable: 'SlowDown',
  Throttling: 'SlowDown',
  ThrottlingException: 'SlowDown',
  RequestTimeTooSkewed: 'RequestTimeTooSkewed',
  TooManyRequests: 'SlowDown',
  InternalServerError: 'InternalError',
  NoSuchLifecycleConfiguration: 'NotImplemented',
  ObjectNotInActiveTierError: 'InvalidObjectState',
  InvalidObjectState: 'InvalidObjectState',
  EntityTooLarge: 'EntityTooLarge',
  XAmzContentSHA256Mismatch: 'BadDigest',
  MissingContentLength: 'MissingContentLength',
  OwnershipControlsNotFoundError: 'OwnershipControlsNotFoundError',
};

/** A bare 404 by what was addressed. */
const NOT_FOUND_BY_SCOPE: Readonly<Record<ErrorScope, S3ErrorCode>> = {
  bucket: 'NoSuchBucket',
  object: 'NoSuchKey',
  upload: 'NoSuchUpload',
};

/** Codes by HTTP status, for answers whose code is missing or unknown here. */
const STATUS_TABLE: Readonly<Record<number, S3ErrorCode>> = {
  304: 'NotModified',
  400: 'BadRequest',
  403: 'AccessDenied',
  405: 'MethodNotAllowed',
  409: 'InvalidBucketState',
  411: 'MissingContentLength',
  412: 'PreconditionFailed',
  416: 'InvalidRange',
  500: 'InternalError',
  501: 'NotImplemented',
  503: 'SlowDown',
};

interface SdkErrorShape {
  name?: unknown;
  message?: unknown;
  $metadata?: { httpStatusCode?: unknown };
  $response?: unknown;
}

/** The upstream's HTTP status, when the error is an HTTP answer at all. */
function upstreamStatus(err: unknown): number | undefined {
  const status = (err as SdkErrorShape | null)?.$metadata?.httpStatusCode;
  return typeof status === 'number' ? status : undefined;
}

/** The code an upstream failure answers here. */
export function upstreamErrorCode(err: unknown, scope: ErrorScope): S3ErrorCode {
  const status = upstreamStatus(err);
  if (status === undefined) return 'InternalError';
  const name = (err as SdkErrorShape).name;
  if (typeof name === 'string') {
    const aliased = NAME_TABLE[name];
    if (aliased !== undefined) return aliased;
    // 'NotFound' is the SDK's name for a 404 without a body (HEAD): the scope says what is missing.
    if (name !== 'NotFound' && isS3ErrorCode(name)) return name;
  }
  if (status === 404) return NOT_FOUND_BY_SCOPE[scope];
  return STATUS_TABLE[status] ?? (status >= 500 ? 'InternalError' : 'BadRequest');
}

/**
 * The S3Error to answer for an upstream failure. An S3Error raised here (by a body guard, say)
 * passes unchanged. The upstream's message is kept when it is one of the code's catalogue variants
 * (clients compare messages). Otherwise, where the code's variants answer different statuses
 * (InvalidBucketState: 400 for versioning, 409 for object lock), the variant of the upstream's
 * status is answered — RGW words its messages its own way; else the code's default message.
 */
export function fromUpstream(err: unknown, scope: ErrorScope): S3Error {
  if (isS3Error(err)) return err;
  const code = upstreamErrorCode(err, scope);
  const message = (err as SdkErrorShape | null)?.message;
  const variants: readonly string[] = ERROR_TABLE[code].messages;
  const status = upstreamStatus(err);
  const variant =
    typeof message === 'string' && variants.includes(message)
      ? message
      : statusOf(code) === status
        ? undefined
        : variants.find((v) => statusOf(code, v) === status);
  // A catalogue variant, so the status is that variant's (S3Error looks it up by message).
  return new S3Error(code, variant as S3ErrorMessage<typeof code> | undefined, { cause: err });
}
