// An S3Client pointed at a test gateway: path-style, us-east-1, no retries (a retry would hide
// the first failure's error code).
import { S3Client, type S3ClientConfig } from '@aws-sdk/client-s3';
import type { Credentials } from './gateway-process.js';

export function s3Client(
  endpoint: string,
  credentials: Credentials,
  extra: Partial<S3ClientConfig> = {},
): S3Client {
  return new S3Client({
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    maxAttempts: 1,
    credentials: { accessKeyId: credentials.access, secretAccessKey: credentials.secret },
    ...extra,
  });
}
