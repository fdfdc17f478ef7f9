// Gateway-wide request limits that versitygw exposes as flags: the highest part number of a
// multipart upload (--mp-max-parts, S3's 10000 by default) and the largest source a CopyObject
// may copy (--copy-object-threshold, 5 GiB by default). Checked before the backend is asked to
// do anything, with the answers S3 gives for its own limits.
import { S3Error } from '@vgwrdma/backend-contract';

export interface RequestLimits {
  /** Part numbers run 1..maxParts (1..10000). */
  readonly maxParts: number;
  /** A CopyObject whose source is larger than this many bytes is refused. */
  readonly copyObjectThreshold: number;
}

export const S3_MAX_PARTS = 10_000;
export const S3_MAX_COPY_SOURCE = 5 * 1024 ** 3;
export const DEFAULT_REQUEST_LIMITS: RequestLimits = {
  maxParts: S3_MAX_PARTS,
  copyObjectThreshold: S3_MAX_COPY_SOURCE,
};

/** A part number in 1..maxParts, else 400 InvalidArgument naming the range (as S3 words it). */
export function checkPartNumber(raw: string, limits: RequestLimits): number {
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n < 1 || n > limits.maxParts) {
    throw S3Error.custom(
      'InvalidArgument',
      `Part number must be an integer between 1 and ${limits.maxParts}, inclusive`,
      { detail: { ArgumentName: 'partNumber', ArgumentValue: raw } },
    );
  }
  return n;
}

/** 400 InvalidRequest when a copy source of `size` bytes is over the threshold. */
export function checkCopySourceSize(size: number, limits: RequestLimits): void {
  if (size > limits.copyObjectThreshold) {
    throw S3Error.custom(
      'InvalidRequest',
      `The specified copy source is larger than the maximum allowable size for a copy source: ${limits.copyObjectThreshold}`,
    );
  }
}
