// @vgwrdma/cuobjclient — move S3 object data by RDMA (cuObject DC v1) or softnic through an
// ordinary @aws-sdk/client-s3 S3Client: Session.open({ size }) → upload / download → close.

export { CHECKSUMS, type ChecksumAlgorithm, checksumHeader } from './checksum.js';
export {
  CuObjError,
  type CuObjErrorCode,
  describeAnswer,
  type GatewayAnswer,
  isCuObjError,
} from './errors.js';
export { HOST_ENV_VARS, hostOptionsFromEnv } from './host-env.js';
export { checkSessionSize, DEFAULT_MAX_SESSION_SIZE, TOKEN_CAPACITY } from './limits.js';
export { BYTES_HEADER, BYTES_TRANSFERRED_HEADER, REPLY_HEADER, TOKEN_HEADER } from './rdma-request.js';
export {
  type DownloadInput,
  Session,
  type SessionMemory,
  type SessionOptions,
  type TransferResult,
  type UploadInput,
} from './session.js';
