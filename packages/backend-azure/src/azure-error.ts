// Blob Storage errors as S3 errors: a table from the service's x-ms-error-code to the S3 code a
// client of S3 expects; anything not in the table stays an internal error with its cause kept.
import { S3Error, type S3ErrorCode } from '@vgwrdma/backend-contract';

const BY_AZURE_CODE: Readonly<Record<string, S3ErrorCode>> = {
  ContainerNotFound: 'NoSuchBucket',
  ContainerBeingDeleted: 'NoSuchBucket',
  ContainerAlreadyExists: 'BucketAlreadyExists',
  BlobNotFound: 'NoSuchKey',
  ConditionNotMet: 'PreconditionFailed',
  BlobAlreadyExists: 'PreconditionFailed',
  InvalidBlockList: 'InvalidPart',
  InvalidRange: 'InvalidRange',
  InvalidTag: 'InvalidTag',
  InvalidMetadata: 'InvalidArgument',
  MetadataTooLarge: 'MetadataTooLarge',
  AuthenticationFailed: 'AccessDenied',
  AuthorizationFailure: 'AccessDenied',
  AuthorizationPermissionMismatch: 'AccessDenied',
  InvalidResourceName: 'InvalidBucketName',
  OutOfRangeInput: 'InvalidBucketName',
  RequestBodyTooLarge: 'EntityTooLarge',
  ServerBusy: 'SlowDown',
};

const BY_STATUS: Readonly<Record<number, S3ErrorCode>> = {
  403: 'AccessDenied',
  412: 'PreconditionFailed',
  416: 'InvalidRange',
};

interface RestErrorShape {
  name?: string;
  code?: string;
  statusCode?: number;
}

/** The Azure error code of a RestError (undefined for anything else). */
export function azureCode(err: unknown): string | undefined {
  const e = err as RestErrorShape | null;
  return e?.name === 'RestError' ? e.code : undefined;
}

export function azureStatus(err: unknown): number | undefined {
  const e = err as RestErrorShape | null;
  return e?.name === 'RestError' ? e.statusCode : undefined;
}

/** An S3Error for a Blob Storage failure; S3Errors and unknown errors pass through unchanged. */
export function toS3Error(err: unknown): unknown {
  if ((err as { name?: string } | null)?.name === 'S3Error') return err;
  const code = azureCode(err);
  const status = azureStatus(err);
  const mapped = (code && BY_AZURE_CODE[code]) || (status !== undefined ? BY_STATUS[status] : undefined);
  if (!mapped) return err;
  return new S3Error(mapped, undefined, { cause: err });
}

/** Runs a Blob Storage call, rethrowing its failure as an S3 error. */
export async function az<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    throw toS3Error(err);
  }
}

/** True when the failure is Blob Storage's "not there" (404) for the container or blob. */
export function isNotFound(err: unknown): boolean {
  return azureStatus(err) === 404;
}
