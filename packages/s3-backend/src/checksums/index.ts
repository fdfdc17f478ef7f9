// Checksums: the registry of S3 checksum algorithms, CRC combination and ETag helpers.

export type { BodyDigestOptions, BodyDigestResult } from './body-digest.js';
export { BodyDigest, digestStream } from './body-digest.js';
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
export type { ChecksumSpec, Hasher } from './types.js';
