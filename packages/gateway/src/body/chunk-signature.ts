// The running signature of STREAMING-AWS4-HMAC-SHA256-PAYLOAD[-TRAILER] bodies: each chunk signs
// the hash of its data and the previous chunk's signature (the seed is the request's own
// signature); the trailer signs its canonical lines and the final chunk's signature.
//
// Each chunk is checked against the signature the client *sent* for the chunk before it, which
// keeps each check self-contained and is as strong as walking the chain: the seed was verified
// with the request, so if every check passes, by induction every sent signature is the one the
// chain yields; if any fails, the body is refused.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

export const EMPTY_SHA256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';
const HEX_SIGNATURE = /^[0-9a-f]{64}$/;

export interface ChunkSigningParams {
  seedSignature: string;
  signingKey: Buffer;
  amzDate: string;
  scope: string;
}

export class ChunkSignatureChain {
  private last: string;

  constructor(private readonly params: ChunkSigningParams) {
    this.last = params.seedSignature;
  }

  /** Records the signature sent for the next chunk and returns the one it chains from. */
  advance(given: string): string {
    const previous = this.last;
    this.last = given;
    return previous;
  }

  /** Whether `given` signs a chunk whose data hashes to `dataSha256Hex`, chained from `previous`. */
  chunkMatches(previous: string, dataSha256Hex: string, given: string): boolean {
    const { amzDate, scope } = this.params;
    return same(
      this.sign(
        `AWS4-HMAC-SHA256-PAYLOAD\n${amzDate}\n${scope}\n${previous}\n${EMPTY_SHA256}\n${dataSha256Hex}`,
      ),
      given,
    );
  }

  /** Checks the trailer signature over the canonical trailer text (`name:value\n` per line). */
  trailerMatches(canonicalTrailers: string, given: string): boolean {
    const { amzDate, scope } = this.params;
    const digest = createHash('sha256').update(canonicalTrailers).digest('hex');
    return same(this.sign(`AWS4-HMAC-SHA256-TRAILER\n${amzDate}\n${scope}\n${this.last}\n${digest}`), given);
  }

  private sign(stringToSign: string): string {
    return createHmac('sha256', this.params.signingKey).update(stringToSign).digest('hex');
  }
}

function same(expectedHex: string, givenHex: string): boolean {
  if (!HEX_SIGNATURE.test(givenHex)) return false;
  return timingSafeEqual(Buffer.from(expectedHex, 'hex'), Buffer.from(givenHex, 'hex'));
}
