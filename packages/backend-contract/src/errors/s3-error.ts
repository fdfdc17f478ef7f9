// S3Error: an error as a value with a code. Status and message come from the table; a message
// variant can be chosen (type-checked against the catalogue), and `detail` carries extra
// elements some codes add to the XML body (e.g. <Key>, <BucketName>).
import { defaultMessage, type S3ErrorCode, type S3ErrorMessage, statusOf } from './codes.js';

export interface S3ErrorOptions {
  /** Extra XML elements for the error body, in order (name → text). */
  detail?: Record<string, string>;
  /** Extra response headers sent with the error (e.g. `x-amz-rdma-reply: 501` on a decline). */
  headers?: Record<string, string>;
  /** Overrides the table status in the rare cases S3 itself varies it. */
  status?: number;
  cause?: unknown;
}

export class S3Error<C extends S3ErrorCode = S3ErrorCode> extends Error {
  readonly code: C;
  readonly status: number;
  readonly detail: Readonly<Record<string, string>>;
  readonly headers: Readonly<Record<string, string>>;

  constructor(code: C, message?: S3ErrorMessage<C>, options: S3ErrorOptions = {}) {
    super(
      message ?? defaultMessage(code),
      options.cause === undefined ? undefined : { cause: options.cause },
    );
    this.name = 'S3Error';
    this.code = code;
    this.status = options.status ?? statusOf(code, this.message);
    this.detail = options.detail ?? {};
    this.headers = options.headers ?? {};
  }

  /** An error with a message outside the catalogue (use sparingly: clients compare messages). */
  static custom<C extends S3ErrorCode>(code: C, message: string, options: S3ErrorOptions = {}): S3Error<C> {
    const err = new S3Error(code, undefined, options);
    Object.defineProperty(err, 'message', { value: message });
    return err;
  }
}

export function isS3Error(err: unknown): err is S3Error {
  return err instanceof S3Error;
}

/** Maps filesystem errnos that have an S3 meaning; anything else is left to the caller. */
const ERRNO_TO_S3: Record<string, S3ErrorCode> = {
  EDQUOT: 'QuotaExceeded',
  ENOSPC: 'InsufficientStorage',
  EROFS: 'MethodNotAllowed',
};

export function s3ErrorFromErrno(err: unknown): S3Error | undefined {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  const mapped = code ? ERRNO_TO_S3[code] : undefined;
  return mapped ? new S3Error(mapped, undefined, { cause: err }) : undefined;
}
