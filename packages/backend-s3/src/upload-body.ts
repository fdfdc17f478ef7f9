// The guard every streamed upload passes through on its way upstream. It counts the bytes and
// hashes them (Content-MD5, the requested checksum) as they go, and when the client's body ends
// it checks them — length, MD5, the expected checksum that an aws-chunked trailer delivers only
// then — BEFORE passing on the last chunk it holds back. On a mismatch it fails instead, so the
// request upstream is torn down short of its Content-Length and the upstream stores nothing: the
// upload stays atomic while holding one chunk, never the body.
import { createHash, type Hash } from 'node:crypto';
import { type Readable, Transform, type TransformCallback } from 'node:stream';
import { type ChecksumRequest, getChecksum, type Hasher, S3Error } from '@vgwrdma/backend-contract';

interface UploadSpec {
  /** Bytes the body must yield (the decoded length for aws-chunked uploads). */
  contentLength: number;
  /** base64 MD5 the bytes must have. */
  contentMD5?: string;
  checksum?: ChecksumRequest;
}

export class UploadGuard extends Transform {
  private bytes = 0;
  /** The latest chunk, passed on only when the next one arrives or the checks pass. */
  private held: Buffer | undefined;
  private readonly md5: Hash | undefined;
  private readonly hasher: Hasher | undefined;
  /** The requested checksum over the bytes that went through (after the body ended). */
  computed: string | undefined;

  constructor(
    private readonly spec: UploadSpec,
    private readonly onFailure: (err: unknown) => void,
  ) {
    super();
    this.md5 = spec.contentMD5 === undefined ? undefined : createHash('md5');
    this.hasher = spec.checksum ? getChecksum(spec.checksum.algorithm).create() : undefined;
  }

  get size(): number {
    return this.bytes;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.bytes > this.spec.contentLength) {
      this.fail(new S3Error('IncompleteBody'));
      return;
    }
    this.md5?.update(chunk);
    this.hasher?.update(chunk);
    const previous = this.held;
    this.held = chunk;
    callback(null, previous);
  }

  override _flush(callback: TransformCallback): void {
    const failed = this.verify();
    if (failed) {
      this.fail(failed);
      return;
    }
    const last = this.held;
    this.held = undefined;
    callback(null, last);
  }

  /**
   * Stops the upload WITHOUT erroring or ending this stream: the SDK re-emits a body stream's
   * error on a stream nobody listens to (an uncaught exception), and an end would let it send
   * the trailer. The caller aborts the upstream request instead; the callback is never called,
   * so nothing more flows.
   */
  fail(err: unknown): void {
    this.held = undefined;
    this.onFailure(err);
  }

  private verify(): S3Error | null {
    if (this.bytes !== this.spec.contentLength) return new S3Error('IncompleteBody');
    if (this.md5 && this.md5.digest('base64') !== this.spec.contentMD5) return new S3Error('BadDigest');
    const request = this.spec.checksum;
    if (request && this.hasher) {
      this.computed = this.hasher.digest();
      const expected = request.expected?.();
      if (expected !== undefined && expected !== this.computed) {
        return S3Error.custom(
          'BadDigest',
          `The ${request.algorithm} you specified did not match the calculated checksum.`,
        );
      }
    }
    return null;
  }
}

/**
 * Feeds `source` through a new guard. `onFailure` receives the first failure (a client body that
 * broke off, a failed check), so the caller can abort the upstream request. The source is never
 * destroyed here: it is the client's request, and the gateway still has to answer on its socket.
 */
export function guardUpload(
  source: Readable,
  spec: UploadSpec,
  onFailure: (err: unknown) => void,
): UploadGuard {
  let failed = false;
  const once = (err: unknown) => {
    if (failed) return;
    failed = true;
    source.unpipe(guard);
    onFailure(err);
  };
  const guard = new UploadGuard(spec, once);
  source.once('error', (err) => guard.fail(err));
  source.pipe(guard);
  return guard;
}
