// @vgwrdma/cuobjclient — move S3 object data by RDMA (cuObject DC v1) or softnic through an
// ordinary @aws-sdk/client-s3 S3Client: Session.open({ size }) → upload / download → close, and
// TransferManager for objects of any size (managed multipart uploads, concurrent ranged GETs).

export type { DeviceAllocation } from '@vgwrdma/rdma-ffi';
// The protocol's names and limits, re-exported so an SDK user needs no second import.
export {
  BYTES_HEADER,
  BYTES_TRANSFERRED_HEADER,
  DEFAULT_MAX_SESSION_SIZE,
  REPLY_HEADER,
  TOKEN_CAPACITY,
  TOKEN_HEADER,
} from '@vgwrdma/rdma-protocol';
export { CHECKSUMS, type ChecksumAlgorithm, checksumHeader } from './checksum.js';
export {
  CuObjError,
  type CuObjErrorCode,
  describeAnswer,
  type GatewayAnswer,
  isCuObjError,
} from './errors.js';
export { HOST_ENV_VARS, HOST_TRANSPORT_OPTIONS, hostOptionsFromEnv } from './host-env.js';
export { PartFailedError } from './part-queue.js';
export {
  type DownloadInput,
  Session,
  type SessionMemory,
  type SessionOptions,
  type TransferResult,
  type UploadInput,
} from './session.js';
export { checkSessionSize } from './session-size.js';
export { TransferManager } from './transfer-manager.js';
export {
  DEFAULT_CONCURRENCY,
  DEFAULT_PART_SIZE,
  defaultConcurrency,
  MAX_OBJECT_SIZE,
  MAX_PARTS,
  MIN_PART_SIZE,
  type PartSpan,
  planParts,
  type ResolvedOptions as ResolvedTransferOptions,
} from './transfer-options.js';
export type {
  DestinationWriter,
  DeviceMemoryRef,
  DownloadDestination,
  DownloadRequest,
  DownloadResult,
  ManagedChecksum,
  ManagedChecksumAlgorithm,
  ManagedChecksumType,
  SourceReader,
  TransferManagerOptions,
  TransferProgress,
  UploadRequest,
  UploadResult,
  UploadSource,
} from './transfer-types.js';
