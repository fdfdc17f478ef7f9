// What S3 allows and checks for a multipart upload's checksum, in one place for the gateway and
// every backend that assembles parts itself:
// - the checksum type an algorithm may have (FULL_OBJECT needs a CRC, which can be combined from
//   the parts; COMPOSITE needs anything but CRC64NVME) and the default when none is named;
// - the value a CompleteMultipartUpload states in x-amz-checksum-<alg>: the checksum of the whole
//   object as the upload's type computes it — for COMPOSITE `<base64>-<part count>`, exactly as
//   the Complete response and a HEAD answer it; for FULL_OBJECT the plain base64 CRC;
// - the x-amz-checksum-type a Complete may state (the one the upload was created with).
// The header on a Complete describes the object, never the request's XML body.
import { S3Error } from '../errors/s3-error.js';
import type { ChecksumAlgorithm, ChecksumType } from '../types/common.js';
import { getChecksum } from './registry.js';

/** S3's part number limit, the largest `-N` a composite value can carry. */
const MAX_PARTS = 10_000;

/** The type S3 gives an upload that names an algorithm but no type. */
export function defaultChecksumType(algorithm: ChecksumAlgorithm): ChecksumType {
  return algorithm === 'CRC64NVME' ? 'FULL_OBJECT' : 'COMPOSITE';
}

/** Whether `type` can be computed for `algorithm`: FULL_OBJECT only for CRCs, COMPOSITE not for CRC64NVME. */
export function checksumTypeAllowed(algorithm: ChecksumAlgorithm, type: ChecksumType): boolean {
  if (type === 'FULL_OBJECT') return getChecksum(algorithm).combine !== undefined;
  return algorithm !== 'CRC64NVME';
}

/** CreateMultipartUpload: InvalidRequest when the named type cannot be used with the algorithm. */
export function checkChecksumType(algorithm: ChecksumAlgorithm, type: ChecksumType | undefined): void {
  if (type === undefined || checksumTypeAllowed(algorithm, type)) return;
  throw S3Error.custom(
    'InvalidRequest',
    `The ${type} checksum type cannot be used with the ${algorithm.toLowerCase()} checksum algorithm.`,
  );
}

/**
 * The value of x-amz-checksum-<alg> on a Complete, checked for shape: the base64 of the
 * algorithm's digest, optionally followed by `-N` (1 ≤ N ≤ 10000, no leading zero). Anything
 * else is InvalidRequest naming the header.
 */
export function parseCompleteChecksumValue(algorithm: ChecksumAlgorithm, value: string): string {
  const spec = getChecksum(algorithm);
  const m = /^([A-Za-z0-9+/]+={0,2})(?:-([1-9][0-9]*))?$/.exec(value.trim());
  const digest = m?.[1];
  const count = m?.[2] === undefined ? undefined : Number(m[2]);
  if (
    digest === undefined ||
    digest.length % 4 !== 0 ||
    Buffer.from(digest, 'base64').length !== spec.size ||
    (count !== undefined && count > MAX_PARTS)
  ) {
    throw S3Error.custom('InvalidRequest', `Value for ${spec.header} header is invalid.`);
  }
  return value.trim();
}

/** The checksum an upload was created with (none: S3 keeps only its default CRC64NVME). */
export interface UploadChecksum {
  algorithm?: ChecksumAlgorithm | undefined;
  type?: ChecksumType | undefined;
}

/**
 * A Complete's x-amz-checksum-type must be the upload's own (InvalidRequest otherwise; an upload
 * created without a checksum has the mode `null`). Checked before any part is read.
 */
export function checkCompleteChecksumType(upload: UploadChecksum, requested: ChecksumType | undefined): void {
  if (requested === undefined) return;
  const created = upload.algorithm ? (upload.type ?? defaultChecksumType(upload.algorithm)) : undefined;
  if (requested === created) return;
  throw S3Error.custom(
    'InvalidRequest',
    `The upload was created using the ${created ?? 'null'} checksum mode. The complete request must use the same checksum mode.`,
  );
}

/**
 * The whole-object value a Complete stated against the one computed from the parts: BadDigest
 * when they differ. Only the upload's own algorithm is compared; a value for another algorithm,
 * or any value on an upload created without a checksum, is ignored, as S3 does.
 */
export function checkCompleteChecksum(
  upload: UploadChecksum,
  stated: Partial<Record<ChecksumAlgorithm, string>> | undefined,
  computed: string | undefined,
): void {
  const algorithm = upload.algorithm;
  if (!algorithm || computed === undefined) return;
  const expected = stated?.[algorithm];
  if (expected === undefined || expected === computed) return;
  throw S3Error.custom('BadDigest', `The ${algorithm} you specified did not match the calculated checksum.`);
}
