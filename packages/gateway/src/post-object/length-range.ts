// Enforces the policy's content-length-range (and S3's single-upload limit) on the file part
// as it streams: a file that grows past the maximum fails the upload at once (EntityTooLarge),
// one that ends short of the minimum fails it at its end (EntityTooSmall), before the backend
// publishes anything; the backend passes an S3Error from its body through unchanged.
import { Transform, type TransformCallback } from 'node:stream';
import { S3Error } from '@vgwrdma/backend-contract';
import type { LengthRange } from './policy-document.js';

export function lengthLimit(range: LengthRange | undefined, hardMax: number): Transform {
  const max = Math.min(range?.max ?? hardMax, hardMax);
  const min = range?.min ?? 0;
  let size = 0;
  return new Transform({
    transform(chunk: Buffer, _enc, done: TransformCallback) {
      size += chunk.length;
      if (size > max)
        return done(
          new S3Error('EntityTooLarge', undefined, {
            detail: { ProposedSize: String(size), MaxSizeAllowed: String(max) },
          }),
        );
      done(null, chunk);
    },
    flush(done: TransformCallback) {
      if (size < min)
        return done(
          new S3Error('EntityTooSmall', undefined, {
            detail: { ProposedSize: String(size), MinSizeAllowed: String(min) },
          }),
        );
      done();
    },
  });
}
