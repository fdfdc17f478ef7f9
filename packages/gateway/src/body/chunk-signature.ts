// The running signature of STREAMING-AWS4-HMAC-SHA256-PAYLOAD[-TRAILER] bodies: each chunk signs
// the hash of its data and the previous signature (the seed is the request's own signature), the
// trailer chunk signs its canonical lines and the final chunk's signature.
import { createHash, createHmac, type Hash, timingSafeEqual } from 'node:crypto';

const EMPTY_SHA256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';
const HEX_SIGNATURE = /^[0-9a-f]{64}$/;

export interface ChunkSigningParams {
  seedSignature: string;
  signingKey: Buffer;
  amzDate: string;
  scope: string;
}

export class ChunkSignatureChain {
  private previous: string;

  constructor(private readonly params: ChunkSigningParams) {
    this.previous = params.seedSignature;
  }

  /** A hasher for one chunk's data; feed it every slice, then pass it to verifyChunk. */
  static hasher(): Hash {
    return createHash('sha256');
  }

  /** Checks one chunk (data hash given as hex) and advances the chain when it matches. */
  verifyChunk(dataSha256Hex: string, given: string): boolean {
    const { amzDate, scope } = this.params;
    const expected = this.sign(`AWS4-HMAC-SHA256-PAYLOAD\n${amzDate}\n${scope}\n${this.previous}\n${EMPTY_SHA256}\n${dataSha256Hex}`);
    if (!same(expected, given)) return false;
    this.previous = expected;
    return true;
  }

  /** Checks the trailer signature over the canonical trailer text (`name:value\n` per line). */
  verifyTrailer(canonicalTrailers: string, given: string): boolean {
    const { amzDate, scope } = this.params;
    const digest = createHash('sha256').update(canonicalTrailers).digest('hex');
    return same(this.sign(`AWS4-HMAC-SHA256-TRAILER\n${amzDate}\n${scope}\n${this.previous}\n${digest}`), given);
  }

  private sign(stringToSign: string): string {
    return createHmac('sha256', this.params.signingKey).update(stringToSign).digest('hex');
  }
}

export const EMPTY_CHUNK_SHA256 = EMPTY_SHA256;

function same(expectedHex: string, givenHex: string): boolean {
  if (!HEX_SIGNATURE.test(givenHex)) return false;
  return timingSafeEqual(Buffer.from(expectedHex, 'hex'), Buffer.from(givenHex, 'hex'));
}
