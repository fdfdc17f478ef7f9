// Multipart answers normalised across upstreams (see upstream-quirks.ts for the rule set):
//   - ListParts of an upload that is gone is NoSuchUpload (RGW 16.2 answers NoSuchKey);
//   - Complete of an aborted upload is NoSuchUpload (RGW 16.2 answers 500 "This multipart
//     completion is already in progress"): a Complete that fails with InternalError asks ListParts
//     whether the upload still exists;
//   - Complete's ETag, when the upstream's answer carries none (RGW 16.2 at times answers an empty
//     <ETag/>), is read back with a HEAD of the completed object.
import {
  type CompleteMultipartUploadCommandOutput,
  HeadObjectCommand,
  ListPartsCommand,
} from '@aws-sdk/client-s3';
import { type RequestContext, S3Error, type UploadRef } from '@vgwrdma/backend-contract';
import { call, type Upstream } from '../upstream.js';
import { quotedETag } from '../upstream-quirks.js';

/** `run`'s answer, with NoSuchKey (about the upload id) answered as NoSuchUpload. */
export async function asUploadError<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof S3Error && err.code === 'NoSuchKey')
      throw new S3Error('NoSuchUpload', undefined, { cause: err });
    throw err;
  }
}

/** `run` (a Complete); an InternalError for an upload that no longer exists becomes NoSuchUpload. */
export async function uploadGone<T>(
  up: Upstream,
  ctx: RequestContext,
  ref: UploadRef,
  run: () => Promise<T>,
): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (!(err instanceof S3Error) || err.code !== 'InternalError') throw err;
    const exists = await asUploadError(() =>
      call(ctx, 'upload', (o) =>
        up.client.send(
          new ListPartsCommand({ Bucket: ref.bucket, Key: ref.key, UploadId: ref.uploadId, MaxParts: 1 }),
          o,
        ),
      ),
    ).then(
      () => true,
      (probe: unknown) => !(probe instanceof S3Error && probe.code === 'NoSuchUpload'),
    );
    if (exists) throw err;
    throw new S3Error('NoSuchUpload', undefined, { cause: err });
  }
}

/** The completed object's ETag: the upstream's answer, else a HEAD of the object. */
export async function completedETag(
  up: Upstream,
  ctx: RequestContext,
  ref: UploadRef,
  out: Pick<CompleteMultipartUploadCommandOutput, 'ETag' | 'VersionId'>,
): Promise<string> {
  if (out.ETag) return quotedETag(out.ETag);
  const head = await call(ctx, 'object', (o) =>
    up.client.send(new HeadObjectCommand({ Bucket: ref.bucket, Key: ref.key, VersionId: out.VersionId }), o),
  );
  return quotedETag(head.ETag);
}
