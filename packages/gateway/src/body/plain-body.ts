// A body sent as is: counts bytes against Content-Length and, when the request signed a payload
// hash, hashes while streaming. Both checks fail the stream before 'end'.
import { createHash, type Hash } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';
import { bodyErrors } from './body-errors.js';

export interface PlainBodyOptions {
  /** Content-Length, when sent. */
  expectedLength: number | undefined;
  /** Lower-case hex SHA-256 the body must hash to (x-amz-content-sha256), when signed. */
  sha256: string | undefined;
}

export class PlainBody extends Transform {
  private received = 0;
  private readonly hash: Hash | undefined;

  constructor(private readonly opts: PlainBodyOptions) {
    super({ readableHighWaterMark: 1 << 16, writableHighWaterMark: 1 << 16 });
    this.hash = opts.sha256 === undefined ? undefined : createHash('sha256');
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.received += chunk.length;
    this.hash?.update(chunk);
    callback(null, chunk);
  }

  override _flush(callback: TransformCallback): void {
    const { expectedLength, sha256 } = this.opts;
    if (expectedLength !== undefined && this.received < expectedLength) callback(bodyErrors.shortBody());
    else if (this.hash && this.hash.digest('hex') !== sha256) callback(bodyErrors.sha256Mismatch());
    else callback();
  }
}
