// The hash constructor @smithy/signature-v4 asks for (`sha256`), on node:crypto: a plain SHA-256,
// or an HMAC when the signer passes a key. Shared by the helpers that sign requests by hand.
import { createHash, createHmac } from 'node:crypto';

export class Sha256 {
  private readonly h;
  constructor(secret?: unknown) {
    this.h = secret === undefined ? createHash('sha256') : createHmac('sha256', secret as Uint8Array);
  }
  update(data: Uint8Array | string): void {
    this.h.update(data);
  }
  digest(): Promise<Uint8Array> {
    return Promise.resolve(new Uint8Array(this.h.digest()));
  }
}
