// The digests of a whole spooled body: its MD5 when the client sent Content-MD5, and the checksum
// the client asked for. They are fed as the body is read and checked once it has ended (when an
// aws-chunked trailer has delivered the expected value), before anything becomes visible upstream.
import { createHash, type Hash } from 'node:crypto';
import {
  type ChecksumAlgorithm,
  type ChecksumRequest,
  getChecksum,
  type Hasher,
  S3Error,
} from '@vgwrdma/backend-contract';
import type { ByteSink } from './body-reader.js';

export interface DigestSpec {
  contentMD5?: string;
  checksum?: ChecksumRequest;
}

export class BodyDigests {
  private readonly md5: Hash | undefined;
  private readonly hasher: Hasher | undefined;
  readonly sinks: readonly ByteSink[];

  constructor(private readonly spec: DigestSpec) {
    this.md5 = spec.contentMD5 === undefined ? undefined : createHash('md5');
    this.hasher = spec.checksum ? getChecksum(spec.checksum.algorithm).create() : undefined;
    this.sinks = [this.md5, this.hasher].filter((s): s is Hash | Hasher => s !== undefined);
  }

  /**
   * After the body's end: BadDigest unless the MD5 and the expected checksum match. Answers the
   * requested checksum as computed here (undefined when none was requested).
   */
  verify(): string | undefined {
    if (this.md5 && this.md5.digest('base64') !== this.spec.contentMD5) throw new S3Error('BadDigest');
    const request = this.spec.checksum;
    if (!request || !this.hasher) return undefined;
    const computed = this.hasher.digest();
    const expected = request.expected?.();
    if (expected !== undefined && expected !== computed) {
      throw S3Error.custom(
        'BadDigest',
        `The ${request.algorithm} you specified did not match the calculated checksum.`,
      );
    }
    return computed;
  }
}

/** A fresh hasher of `algorithm` (one part's checksum). */
export function partHasher(algorithm: ChecksumAlgorithm): Hasher {
  return getChecksum(algorithm).create();
}
