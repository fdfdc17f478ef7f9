// Test helper: an @aws-sdk/client-s3 client for the in-process gateway, and (from the test-kit)
// commands carrying an RDMA token with the raw response headers, where x-amz-rdma-reply and the
// byte counts are.
import { S3Client } from '@aws-sdk/client-s3';

export function s3(endpoint: string, access: string, secret: string): S3Client {
  return new S3Client({
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    maxAttempts: 1,
    credentials: { accessKeyId: access, secretAccessKey: secret },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

export { type SdkOutput, sendError, sendWithToken } from '@vgwrdma/test-kit';
