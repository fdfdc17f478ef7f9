// The shapes of the checksum registry: an incremental hasher and one algorithm's entry.
import type { ChecksumAlgorithm } from '../types/common.js';

/** An incremental hash. `digest()` ends it and answers the value as S3 sends it (base64). */
export interface Hasher {
  update(chunk: Uint8Array): void;
  digest(): string;
  /**
   * Optional: the same update, run off the main thread (the native CRCs, on the libuv pool), so
   * it can overlap MD5. Updates still apply in call order; `chunk` must stay unchanged until the
   * promise settles, and digest() may be called only after every promise settled.
   */
  updateOffThread?(chunk: Uint8Array): Promise<void>;
}

/** One checksum algorithm: its S3 header, a hasher factory, and (CRCs only) combination. */
export interface ChecksumSpec {
  readonly algorithm: ChecksumAlgorithm;
  /** The request/response header carrying the value, e.g. `x-amz-checksum-crc32`. */
  readonly header: `x-amz-checksum-${string}`;
  /** Digest size in bytes. */
  readonly size: number;
  create(): Hasher;
  /**
   * crc(A || B) from crc(A), crc(B) and the byte length of B, without the data (base64 in and
   * out). Present for CRCs only: it is what makes a FULL_OBJECT multipart checksum computable
   * from the part checksums.
   */
  readonly combine?: (crcA: string, crcB: string, lengthB: number) => string;
}
