// The plain-HTTP side of the managed benchmark: the AWS SDK's own requests, multipart as its
// managed uploaders do it (CreateMultipartUpload, `concurrency` UploadParts in flight with the
// same part size as the RDMA side, CompleteMultipartUpload) and the download as concurrent ranged
// GetObjects of the same size — so both sides move the same parts with the same parallelism.
// (@aws-sdk/lib-storage is not a dependency of this repository; its Upload does the same calls.)
// Parts come from / go to the same part reader / writer as the RDMA side.
import { sdk } from './sdk.mjs';

const { CompleteMultipartUploadCommand, CreateMultipartUploadCommand, GetObjectCommand, UploadPartCommand } =
  sdk;

/** Runs `work(i)` for i in [0, n) with at most `limit` at once. */
export async function inParallel(n, limit, work) {
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < n; i = next++) await work(i);
  };
  await Promise.all(Array.from({ length: Math.min(limit, n) }, worker));
}

/** Multipart upload over HTTP; `part(offset, length)` gives a part's bytes. Returns the ETag. */
export async function httpUpload(s3, { bucket, key, size, partSize, concurrency, part }) {
  const { UploadId } = await s3.send(new CreateMultipartUploadCommand({ Bucket: bucket, Key: key }));
  const n = Math.ceil(size / partSize);
  const etags = new Array(n);
  await inParallel(n, concurrency, async (i) => {
    const offset = i * partSize;
    const length = Math.min(partSize, size - offset);
    const out = await s3.send(
      new UploadPartCommand({
        Bucket: bucket,
        Key: key,
        UploadId,
        PartNumber: i + 1,
        Body: part(offset, length),
        ContentLength: length,
      }),
    );
    etags[i] = out.ETag;
  });
  const done = await s3.send(
    new CompleteMultipartUploadCommand({
      Bucket: bucket,
      Key: key,
      UploadId,
      MultipartUpload: { Parts: etags.map((ETag, i) => ({ ETag, PartNumber: i + 1 })) },
    }),
  );
  return done.ETag;
}

/** Concurrent ranged GETs over HTTP; `got(offset, bytes)` receives each range. Returns bytes read. */
export async function httpDownload(s3, { bucket, key, size, partSize, concurrency, got }) {
  const n = Math.ceil(size / partSize);
  let total = 0;
  await inParallel(n, concurrency, async (i) => {
    const offset = i * partSize;
    const end = Math.min(size, offset + partSize) - 1;
    const out = await s3.send(
      new GetObjectCommand({ Bucket: bucket, Key: key, Range: `bytes=${offset}-${end}` }),
    );
    const bytes = await out.Body.transformToByteArray();
    total += bytes.length;
    await got(offset, bytes);
  });
  return total;
}
