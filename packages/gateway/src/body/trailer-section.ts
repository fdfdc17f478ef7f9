// The trailing headers after the final aws-chunked chunk: collects `name:value` lines, keeps the
// canonical text the trailer signature covers, and checks the set against what was declared.
import { bodyErrors } from './body-errors.js';
import type { ChunkSignatureChain } from './chunk-signature.js';

const SIGNATURE_NAME = 'x-amz-trailer-signature';
/** Trailers are a few checksum lines; anything much larger is not a trailer. */
const MAX_TRAILER_LINES = 16;

export class TrailerSection {
  private readonly values = new Map<string, string>();
  private canonical = '';
  private signature: string | undefined;
  private lines = 0;

  /** @param declared lower-case names from the x-amz-trailer header */
  constructor(private readonly declared: readonly string[]) {}

  add(line: string): void {
    if (++this.lines > MAX_TRAILER_LINES) throw bodyErrors.badTrailer();
    const colon = line.indexOf(':');
    if (colon <= 0) throw bodyErrors.badTrailer();
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (name === '') throw bodyErrors.badTrailer();
    if (name === SIGNATURE_NAME) {
      this.signature = value;
      return;
    }
    if (this.signature !== undefined) throw bodyErrors.badTrailer(); // the signature comes last
    this.values.set(name, value);
    this.canonical += `${name}:${value}\n`;
  }

  get size(): number {
    return this.values.size + (this.signature === undefined ? 0 : 1);
  }

  /** Verifies the section once it is complete; `chain` is given when trailers are signed. */
  finish(chain: ChunkSignatureChain | undefined): void {
    for (const name of this.declared) if (!this.values.has(name)) throw bodyErrors.badTrailer();
    if (!chain) return;
    if (this.signature === undefined) throw bodyErrors.badTrailer();
    if (!chain.trailerMatches(this.canonical, this.signature)) throw bodyErrors.badSignature();
  }

  get(name: string): string | undefined {
    return this.values.get(name.toLowerCase());
  }
}
