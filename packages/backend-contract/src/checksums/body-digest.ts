// BodyDigest: everything a backend computes over the bytes of an upload as they stream past —
// the MD5 ETag, the checksum the client asked for, and CRC64NVME by default — and the checks
// that must pass before the object becomes visible (Content-MD5, the expected checksum, length).
import { createHash } from 'node:crypto';
import { S3Error } from '../errors/s3-error.js';
import type { ChecksumAlgorithm, ChecksumRequest, Checksums, ChecksumType } from '../types/common.js';
import { CHECKSUMS } from './registry.js';
import type { Hasher } from './types.js';

export interface BodyDigestOptions {
  checksum?: ChecksumRequest | undefined;
  /** base64 Content-MD5 to verify. */
  contentMD5?: string | undefined;
  /** Bytes the body must yield (IncompleteBody when it yields fewer or more). */
  contentLength?: number | undefined;
  /**
   * Computed when the request names no algorithm. S3 stores CRC64NVME (FULL_OBJECT) for every
   * new object; `null` turns the default off.
   */
  defaultAlgorithm?: ChecksumAlgorithm | null;
}

export interface BodyDigestResult {
  /** Quoted hex MD5. */
  etag: string;
  /** base64 MD5 (what Content-MD5 carries). */
  md5: string;
  size: number;
  checksums: Checksums;
  checksumType?: ChecksumType;
}

export class BodyDigest {
  private readonly md5 = createHash('md5');
  private readonly hashers: [ChecksumAlgorithm, Hasher][] = [];
  private size = 0;

  constructor(private readonly options: BodyDigestOptions = {}) {
    const alg =
      options.checksum?.algorithm ??
      (options.defaultAlgorithm === undefined ? 'CRC64NVME' : options.defaultAlgorithm);
    if (alg) this.hashers.push([alg, CHECKSUMS[alg].create()]);
  }

  update(chunk: Uint8Array): void {
    this.size += chunk.length;
    this.md5.update(chunk);
    for (const [, h] of this.hashers) h.update(chunk);
  }

  /** Ends the digest; throws IncompleteBody or BadDigest when a check fails. */
  finish(): BodyDigestResult {
    const { contentLength, contentMD5, checksum } = this.options;
    if (contentLength !== undefined && contentLength !== this.size) throw new S3Error('IncompleteBody');
    const md5 = this.md5.digest();
    if (contentMD5 !== undefined && contentMD5 !== md5.toString('base64')) throw new S3Error('BadDigest');
    const checksums: Checksums = {};
    for (const [alg, h] of this.hashers) checksums[alg] = h.digest();
    if (checksum) {
      const expected = checksum.expected?.();
      if (expected !== undefined && expected !== checksums[checksum.algorithm]) {
        throw S3Error.custom(
          'BadDigest',
          `The ${checksum.algorithm} you specified did not match the calculated checksum.`,
        );
      }
    }
    const result: BodyDigestResult = {
      etag: `"${md5.toString('hex')}"`,
      md5: md5.toString('base64'),
      size: this.size,
      checksums,
    };
    // A single-part upload's checksum covers the whole object whatever the algorithm; COMPOSITE
    // only arises from multipart uploads.
    if (this.hashers.length > 0) result.checksumType = 'FULL_OBJECT';
    return result;
  }
}

/** Reads a body to the end through a BodyDigest, returning the bytes and the checked digest. */
export async function digestStream(
  body: AsyncIterable<Uint8Array | string>,
  options: BodyDigestOptions = {},
): Promise<BodyDigestResult & { data: Buffer }> {
  const digest = new BodyDigest(options);
  const chunks: Buffer[] = [];
  for await (const chunk of body) {
    const buf =
      typeof chunk === 'string'
        ? Buffer.from(chunk)
        : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    digest.update(buf);
    chunks.push(buf);
  }
  return { ...digest.finish(), data: Buffer.concat(chunks) };
}
