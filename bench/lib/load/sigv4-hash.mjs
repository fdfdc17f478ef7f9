// The hash constructor @smithy/signature-v4 asks for (SHA-256, or HMAC-SHA-256 with a secret), on
// node:crypto: what the bench's light clients sign with (load/worker.mjs, listing-light.mjs).

import { createHash, createHmac } from 'node:crypto';

export class Sha256 {
  constructor(secret) {
    this.h = secret === undefined ? createHash('sha256') : createHmac('sha256', secret);
  }
  update(data) {
    this.h.update(data);
  }
  digest() {
    return Promise.resolve(new Uint8Array(this.h.digest()));
  }
}
