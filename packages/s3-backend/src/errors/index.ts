export { ERROR_TABLE, defaultMessage, isS3ErrorCode, statusOf } from './codes.js';
export type { S3ErrorCode, S3ErrorMessage } from './codes.js';
export { S3Error, isS3Error, s3ErrorFromErrno } from './s3-error.js';
export type { S3ErrorOptions } from './s3-error.js';
