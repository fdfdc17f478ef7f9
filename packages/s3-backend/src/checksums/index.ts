// Checksums: the registry of S3 checksum algorithms, CRC combination and ETag helpers.
export {
  CHECKSUMS,
  algorithmOfHeader,
  checksumHeader,
  createMd5,
  getChecksum,
  md5ETag,
  multipartETag,
  parseChecksumAlgorithm,
} from './registry.js';
export type { ChecksumSpec, Hasher } from './types.js';
