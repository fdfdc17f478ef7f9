export type { S3ErrorCode, S3ErrorMessage } from './codes.js';
export { defaultMessage, ERROR_TABLE, isS3ErrorCode, statusOf } from './codes.js';
export { escapeXml } from './escape-xml.js';
export type { S3ErrorOptions } from './s3-error.js';
export { isS3Error, S3Error, s3ErrorFromErrno } from './s3-error.js';
