// Checksums: the registry of S3 checksum algorithms, CRC combination and ETag helpers.

export type { BodyDigestOptions, BodyDigestResult } from './body-digest.js';
export { BodyDigest, digestStream } from './body-digest.js';
export type { EtagDigest, EtagMode, EtagResult } from './etag-digest.js';
export { etagDigest, MD5_ETAG, MIN_ETAG_PART_SIZE } from './etag-digest.js';
export type {
  ChecksumKernelStatus,
  ChecksumKernels,
  CrcKernels,
  OffThreadAlgorithm,
  OffThreadDigest,
} from './kernels.js';
export {
  checksumKernelStatus,
  installChecksumKernels,
  offThreadDigest,
  offThreadDigestAvailable,
} from './kernels.js';
export type { UploadChecksum } from './multipart-checksum.js';
export {
  checkChecksumType,
  checkCompleteChecksum,
  checkCompleteChecksumType,
  checksumTypeAllowed,
  defaultChecksumType,
  parseCompleteChecksumValue,
} from './multipart-checksum.js';
export {
  algorithmOfHeader,
  CHECKSUMS,
  checksumHeader,
  createMd5,
  getChecksum,
  md5ETag,
  multipartETag,
  parseChecksumAlgorithm,
} from './registry.js';
export { Sha256 } from './sha256-hash.js';
export type { StreamDigest } from './stream-digest.js';
export { OFF_THREAD_MIN_BYTES, streamDigest } from './stream-digest.js';
export type { ChecksumSpec, Hasher } from './types.js';
