// End-to-end helpers for RDMA: @aws-sdk/client-s3 commands carrying the token with the raw
// response headers and errors with their raw headers (the test-kit's, shared with cu-backend's
// tests), and streaming MD5 of an object read over plain HTTP.
import { createHash } from 'node:crypto';
import type { S3Client } from '@aws-sdk/client-s3';

export { type SentError, sendError, sendSigned, sendWithToken } from '@vgwrdma/test-kit';

type Headers = Record<string, string>;

/** MD5 (hex) of a response body, streamed. */
export async function md5Of(
  body: AsyncIterable<Uint8Array> | undefined,
): Promise<{ md5: string; size: number }> {
  if (!body) throw new Error('no body');
  const h = createHash('md5');
  let size = 0;
  for await (const chunk of body) {
    h.update(chunk);
    size += chunk.length;
  }
  return { md5: h.digest('hex'), size };
}

export const rdmaHeaders = (h: Headers) => Object.keys(h).filter((k) => k.startsWith('x-amz-rdma'));

/** SDK settings the RDMA client rules ask for (docs/protocol.md "Client rules"). */
export const RDMA_SDK_OPTIONS = {
  requestChecksumCalculation: 'WHEN_REQUIRED',
  responseChecksumValidation: 'WHEN_REQUIRED',
} as const;

export type { S3Client };
