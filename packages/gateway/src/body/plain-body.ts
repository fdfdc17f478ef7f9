// A body sent as is: counts bytes against Content-Length and, when the request signed a payload
// hash, hashes while streaming. Both checks fail the stream before 'end', so nothing is published
// from a body that does not match. A large signed body is hashed off the main thread
// (streamDigest, once native kernels are installed: installNativeKernels() by the app or the
// backend): the SHA-256 runs on a libuv pool thread while this stream passes the chunks on.
import { Transform, type TransformCallback } from 'node:stream';
import { type StreamDigest, streamDigest } from '@vgwrdma/backend-contract';
import { bodyErrors } from './body-errors.js';

export interface PlainBodyOptions {
  /** Content-Length, when sent. */
  expectedLength: number | undefined;
  /** Lower-case hex SHA-256 the body must hash to (x-amz-content-sha256), when signed. */
  sha256: string | undefined;
}

export class PlainBody extends Transform {
  private received = 0;
  private readonly hash: StreamDigest | undefined;

  constructor(private readonly opts: PlainBodyOptions) {
    super({ readableHighWaterMark: 1 << 16, writableHighWaterMark: 1 << 16 });
    this.hash = opts.sha256 === undefined ? undefined : streamDigest('sha256', opts.expectedLength);
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.received += chunk.length;
    this.hash?.update(chunk);
    const wait = this.hash?.backpressure();
    if (wait) wait.then(() => callback(null, chunk), callback);
    else callback(null, chunk);
  }

  override _flush(callback: TransformCallback): void {
    const { expectedLength, sha256 } = this.opts;
    if (expectedLength !== undefined && this.received < expectedLength) callback(bodyErrors.shortBody());
    else if (!this.hash) callback();
    else
      this.hash.digest().then(
        (d) => callback(d.toString('hex') === sha256 ? undefined : bodyErrors.sha256Mismatch()),
        (err: Error) => callback(err),
      );
  }

  override _destroy(err: Error | null, callback: (error?: Error | null) => void): void {
    this.hash?.dispose();
    callback(err);
  }
}
