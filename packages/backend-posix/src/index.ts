// @vgwrdma/backend-posix: the versitygw-compatible POSIX backend.

export {
  ConcurrencyLimitedBackend,
  DEFAULT_POSIX_CONCURRENCY,
  limitConcurrency,
} from './concurrency-limit.js';
export { OWNER_TAG, ownerId } from './fs/owner.js';
export { cleanStaleTemps, STALE_TEMP_AGE_MS, type StaleTempOptions } from './fs/stale-temps.js';
export { DEFAULT_FILE_PERMS } from './fs/temp-file.js';
export { ATTR as POSIX_ATTRS } from './meta/attr-names.js';
export { MetadataCorruptError } from './meta/metadata-corrupt-error.js';
export { NoMetaStore } from './meta/none-store.js';
export { SidecarStore } from './meta/sidecar-store.js';
export type { MetaStore, MetaStoreKind } from './meta/store.js';
export { XattrStore } from './meta/xattr-store.js';
export type { PosixBackendOptions } from './open.js';
export { probeXattrs, XattrUnsupportedError } from './open.js';
export { isValidBucketName } from './ops/buckets.js';
export { POSIX_BACKEND_OPTIONS, type PosixBackendSettings } from './options-schema.js';
export { PosixBackend } from './posix-backend.js';
