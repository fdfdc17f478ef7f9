// @vgwrdma/backend-s3: the proxy backend — every Backend operation forwarded to an upstream S3
// store, for gateways in front of AWS S3, Ceph RGW, MinIO or another gateway.

export type { MetaKind } from './meta-bucket.js';
export { metaKey } from './meta-bucket.js';
export type { S3BackendOptions } from './options.js';
export {
  DEFAULT_MAX_ATTEMPTS,
  DEFAULT_MAX_SOCKETS,
  DEFAULT_REGION,
  DEFAULT_SPOOL_MEMORY,
  DEFAULT_UPLOAD_PART_SIZE,
  MAX_UPLOAD_PART_SIZE,
  MIN_UPLOAD_PART_SIZE,
} from './options.js';
export { S3_BACKEND_OPTIONS } from './options-schema.js';
export { MetaBucketMissingError, S3Backend } from './s3-backend.js';
export type { ErrorScope } from './upstream-error.js';
export { fromUpstream, upstreamErrorCode } from './upstream-error.js';
