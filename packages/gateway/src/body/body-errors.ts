// The S3 errors a request body can end with, named for the failure rather than the code.
import { S3Error } from '@vgwrdma/backend-contract';

export const bodyErrors = {
  /** The client sent fewer bytes than Content-Length promised (socket closed early). */
  shortBody: () =>
    new S3Error(
      'IncompleteBody',
      'You did not provide the number of bytes specified by the Content-Length HTTP header',
    ),
  /** aws-chunked framing ended or broke before the final chunk and its trailers. */
  truncated: () => new S3Error('IncompleteBody', 'The request body terminated unexpectedly'),
  badChunkSize: () => new S3Error('InvalidChunkSizeError'),
  badSignature: () => new S3Error('SignatureDoesNotMatch'),
  badTrailer: () => new S3Error('MalformedTrailerError'),
  sha256Mismatch: () => new S3Error('XAmzContentSHA256Mismatch'),
  /** The client sent no body bytes for the body idle timeout while the gateway was reading. */
  idle: () => new S3Error('RequestTimeout'),
} as const;
