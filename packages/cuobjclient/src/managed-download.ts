// A managed download: HeadObject for the size and ETag (a destination too small is refused here,
// before any byte moves), then concurrent ranged RDMA GETs of partSize through the part queue,
// each conditional on that ETag (a replaced object fails the range with 412 instead of mixing
// two versions). With a checksum algorithm and an object that has a full-object checksum of it,
// the ranges' CRCs are combined and compared with the object's value at the end.

import { HeadObjectCommand } from '@aws-sdk/client-s3';
import { CuObjError } from './errors.js';
import type { TransferContext } from './managed-upload.js';
import { checksumSpec, getRange, SDK_CHECKSUM_FIELD } from './part-io.js';
import { abortedError, runParts } from './part-queue.js';
import { downloadEndpoint } from './transfer-endpoints.js';
import { planParts } from './transfer-options.js';
import type { DownloadRequest, DownloadResult, ManagedChecksumAlgorithm } from './transfer-types.js';

export async function managedDownload(ctx: TransferContext, req: DownloadRequest): Promise<DownloadResult> {
  const t0 = performance.now();
  const dst = downloadEndpoint(req.destination);
  const algorithm: ManagedChecksumAlgorithm | undefined =
    req.checksum === null ? undefined : (req.checksum ?? ctx.options.checksum?.algorithm);
  if (req.signal?.aborted) throw abortedError(req.signal);
  const { bucket, key } = req;
  const head = await ctx.s3.send(
    new HeadObjectCommand({ Bucket: bucket, Key: key, ...(algorithm ? { ChecksumMode: 'ENABLED' } : {}) }),
  );
  const size = head.ContentLength ?? 0;
  if (size > dst.size) {
    throw new CuObjError(
      'VGW_ERR_CUOBJ_DESTINATION_TOO_SMALL',
      `s3://${bucket}/${key} is ${size} bytes; the destination takes ${dst.size}`,
    );
  }
  // Only a full-object value can be checked from ranges (a composite one needs the part layout).
  const stated =
    algorithm === undefined
      ? undefined
      : (head as unknown as Record<string, unknown>)[SDK_CHECKSUM_FIELD[algorithm]];
  const expected = typeof stated === 'string' && !stated.includes('-') ? stated : undefined;
  const verify = expected === undefined ? undefined : algorithm;
  const spans = planParts(size, ctx.options.partSize);
  const pool = ctx.pool(dst.memory, ctx.options.partSize);
  const q = await runParts(
    spans,
    pool,
    { ...ctx.options, signal: req.signal, onProgress: req.onProgress, totalBytes: size },
    (s, span, http) =>
      getRange(s, {
        s3: ctx.s3,
        bucket,
        key,
        span,
        etag: head.ETag,
        deliver: dst.part,
        checksum: verify,
        http,
      }),
  );
  if (size === 0) req.onProgress?.({ bytesDone: 0, totalBytes: 0, partsDone: 0, totalParts: 0 });
  if (verify !== undefined && expected !== undefined && q.parts.length > 0) {
    const combine = checksumSpec(verify).combine;
    const first = q.parts[0]?.checksum ?? '';
    const got = combine
      ? q.parts.slice(1).reduce((acc, p) => combine(acc, p.checksum ?? '', p.span.length), first)
      : first;
    if (got !== expected) {
      throw new CuObjError(
        'VGW_ERR_CUOBJ_CHECKSUM_MISMATCH',
        `GET: the ${verify} of the ${size} bytes received is ${got}, the object's is ${expected}`,
      );
    }
  }
  return {
    bytes: size,
    etag: head.ETag,
    parts: q.parts.length,
    retries: q.retries,
    httpParts: q.httpParts,
    maxInFlight: q.maxInFlight,
    ms: performance.now() - t0,
    checksumVerified: verify !== undefined && q.parts.length > 0,
  };
}
