// @vgwrdma/backend-contract: the Backend contract, its types, the S3 error catalogue, and helpers every
// backend shares (ranges, conditional requests).
export type * from './backend.js';
export { BACKEND_METHODS } from './backend-methods.js';
export type { LendingBody, LentChunk, PositionalBody, WholeBody } from './body-capabilities.js';
export {
  BORROW_CHUNKS,
  isLendingBody,
  isPositionalBody,
  isWholeBody,
  READ_AT,
  WHOLE_BYTES,
} from './body-capabilities.js';
export type {
  BodyDigestOptions,
  BodyDigestResult,
  ChecksumKernelStatus,
  ChecksumKernels,
  ChecksumSpec,
  CrcKernels,
  EtagDigest,
  EtagMode,
  EtagResult,
  Hasher,
  OffThreadAlgorithm,
  OffThreadDigest,
  StreamDigest,
  UploadChecksum,
} from './checksums/index.js';
export {
  algorithmOfHeader,
  BodyDigest,
  CHECKSUMS,
  checkChecksumType,
  checkCompleteChecksum,
  checkCompleteChecksumType,
  checksumHeader,
  checksumKernelStatus,
  checksumTypeAllowed,
  createMd5,
  defaultChecksumType,
  digestStream,
  etagDigest,
  getChecksum,
  installChecksumKernels,
  MD5_ETAG,
  MIN_ETAG_PART_SIZE,
  md5ETag,
  multipartETag,
  OFF_THREAD_MIN_BYTES,
  offThreadDigest,
  offThreadDigestAvailable,
  parseChecksumAlgorithm,
  parseCompleteChecksumValue,
  Sha256,
  streamDigest,
} from './checksums/index.js';
export type { ConditionTarget } from './conditions.js';
export { checkConditions, normalizeETag } from './conditions.js';
export { checkNotCopyToItself, copyToItselfError } from './copy-to-itself.js';
export { DelegatingBackend } from './delegating-backend.js';
export * from './errors/index.js';
export {
  compareKeys,
  type ListPageInput,
  type ListPageResult,
  ListPager,
  pageUploads,
  type UploadEntry,
  unversionedPage,
} from './list-page.js';
export { contentRangeHeader, parseRange, resolveRange } from './range.js';
export * from './types/index.js';
export { UnsupportedBackend } from './unsupported-backend.js';
export { installUpstreamOps, type UpstreamOp, type UpstreamOps } from './upstream-ops.js';
