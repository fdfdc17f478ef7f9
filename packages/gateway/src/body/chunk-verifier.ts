// Hashes the data of each signed aws-chunked chunk as it streams past (incrementally, never
// gathering a chunk, so no client-declared chunk size turns into an allocation) and checks the
// chunk's signature when its data ends.
//
// Hashing stays on the main thread: measured here, handing 64 KiB chunks to WebCrypto (libuv
// pool) cost about twice the CPU per byte of node:crypto's incremental hash, for no gain on a
// loaded machine; one core's SHA-256 is the ceiling of a signed stream.
import { createHash, type Hash } from 'node:crypto';
import { bodyErrors } from './body-errors.js';
import { type ChunkSignatureChain, EMPTY_SHA256 } from './chunk-signature.js';

export class ChunkVerifier {
  private hasher: Hash | undefined;
  private previous = '';
  private given = '';

  constructor(private readonly chain: ChunkSignatureChain) {}

  /** Starts a chunk of `size` data bytes whose header carried signature `given`. */
  begin(size: number, given: string): void {
    this.previous = this.chain.advance(given);
    this.given = given;
    this.hasher = size > 0 ? createHash('sha256') : undefined;
  }

  update(piece: Buffer): void {
    this.hasher?.update(piece);
  }

  /** Ends the current chunk; throws SignatureDoesNotMatch when its signature is wrong. */
  end(): void {
    const hex = this.hasher ? this.hasher.digest('hex') : EMPTY_SHA256;
    this.hasher = undefined;
    if (!this.chain.chunkMatches(this.previous, hex, this.given)) throw bodyErrors.badSignature();
  }
}
