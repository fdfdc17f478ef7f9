// Sha256: the hash constructor the AWS SDK's SigV4 signer (@smithy/signature-v4, its `sha256`
// option) asks for, on node:crypto: plain SHA-256, or HMAC-SHA-256 when given a key. Shared by
// the clients in this workspace that sign requests themselves (the app's admin command, the
// test kit's signer).
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
