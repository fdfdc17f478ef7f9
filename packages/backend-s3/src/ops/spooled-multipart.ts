// A body of unknown length longer than one part goes upstream as a multipart upload: parts of
// the configured size, each spooled, checksummed here and sent with its Content-Length (one part
// in flight while the next is read), then Complete — but only after the whole body's Content-MD5
// and checksum have been checked. Any failure (the client goes away, a digest mismatch, an
// upstream refusal) aborts the upload upstream, so a failed PUT leaves no object and no upload.
// The object gets the PUT's metadata, content headers, tags and object lock settings at
// CreateMultipartUpload (the tags again after Complete: RGW drops them); its ETag is the upstream's multipart ETag (`<md5 of part MD5s>-<parts>`).
import {
  AbortMultipartUploadCommand,
  type CompletedPart,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import type {
  ChecksumAlgorithm,
  ChecksumType,
  PutObjectInput,
  PutObjectOutput,
  RequestContext,
} from '@vgwrdma/backend-contract';
import { S3Error } from '@vgwrdma/backend-contract';
import { compact } from '../compact.js';
import { objectAttributeFields, taggingQuery } from '../convert.js';
import type { BodyReader } from '../spool/body-reader.js';
import { type BodyDigests, partHasher } from '../spool/digests.js';
import type { Spool } from '../spool/spool.js';
import { newSpool } from '../spool/spool-config.js';
import { call, type Upstream } from '../upstream.js';
import { fromUpstream } from '../upstream-error.js';
import { completedEtag, tagCompleted } from './completed-object.js';
import { sendSpool, upstreamChecksum } from './spool-send.js';

/** How a multipart object's checksum combines its parts' (S3 allows full-object CRCs only). */
const MULTIPART_CHECKSUM_TYPE = {
  CRC32: 'FULL_OBJECT',
  CRC32C: 'FULL_OBJECT',
  CRC64NVME: 'FULL_OBJECT',
  SHA1: 'COMPOSITE',
  SHA256: 'COMPOSITE',
} as const satisfies Record<ChecksumAlgorithm, ChecksumType>;

/** How long the clean-up of a failed upload may take (the request's own signal may have fired). */
const ABORT_TIMEOUT_MS = 30_000;

export async function spooledMultipart(
  up: Upstream,
  ctx: RequestContext,
  input: PutObjectInput,
  reader: BodyReader,
  first: Spool,
  digests: BodyDigests,
): Promise<PutObjectOutput> {
  const algorithm = up.options.disableChecksum === true ? undefined : input.checksum?.algorithm;
  const checksumType = algorithm === undefined ? undefined : MULTIPART_CHECKSUM_TYPE[algorithm];
  const created = await call(ctx, 'bucket', (o) =>
    up.client.send(
      new CreateMultipartUploadCommand({
        Bucket: input.bucket,
        Key: input.key,
        ...objectAttributeFields(input),
        ChecksumAlgorithm: algorithm,
        ChecksumType: checksumType,
      }),
      o,
    ),
  );
  const uploadId = created.UploadId;
  if (!uploadId) throw new S3Error('InternalError');
  const ref = { Bucket: input.bucket, Key: input.key, UploadId: uploadId };

  const parts: CompletedPart[] = [];
  const sends: Promise<void>[] = [];
  const sendPart = (n: number, spool: Spool, hasher: ReturnType<typeof partHasher> | undefined) => {
    const value = hasher?.digest();
    const sent = sendSpool(
      ctx,
      spool,
      (body, o) =>
        up.streamClient.send(
          new UploadPartCommand({
            ...ref,
            PartNumber: n,
            Body: body,
            ContentLength: spool.size,
            ...upstreamChecksum(up, algorithm, value),
          }),
          o,
        ),
      'upload',
    )
      .then((out) => {
        parts[n - 1] = { PartNumber: n, ETag: out.ETag, ...upstreamChecksum(up, algorithm, value) };
      })
      .finally(() => spool.dispose());
    sent.catch(() => undefined); // awaited below; not an unhandled rejection meanwhile
    sends.push(sent);
    return sent;
  };

  try {
    let spool = first;
    let hasher = algorithm ? partHasher(algorithm) : undefined;
    // The first part was read before anyone knew the body was long: hash it again for its own value.
    if (hasher) for await (const chunk of first.body()) hasher.update(chunk);
    let size = first.size;
    let previous: Promise<void> | undefined;
    for (let n = 1; ; n++) {
      const sending = sendPart(n, spool, hasher);
      if (await reader.atEnd()) {
        await Promise.all([previous, sending]);
        break;
      }
      // One part in flight while the next is read: wait for the one before it.
      await previous;
      previous = sending;
      spool = newSpool(up.spool);
      hasher = algorithm ? partHasher(algorithm) : undefined;
      await reader.fill(spool, up.spool.partSize, hasher ? [...digests.sinks, hasher] : digests.sinks);
      size += spool.size;
    }
    const computed = digests.verify();
    const out = await call(ctx, 'upload', (o) =>
      up.client.send(
        new CompleteMultipartUploadCommand({
          ...ref,
          MultipartUpload: { Parts: parts },
          // The parts' checksums, which the upstream verified, make up the object's; the whole
          // body's was checked here. (Not restated: this project's own gateway, as an upstream,
          // reads x-amz-checksum-* on a Complete as the XML body's and answers BadDigest.)
          ChecksumType: checksumType,
          IfMatch: input.ifMatch,
          IfNoneMatch: input.ifNoneMatch,
        }),
        o,
      ),
    );
    const requested = input.checksum?.algorithm;
    const written = { ...input, versionId: out.VersionId };
    if (input.tagging && Object.keys(input.tagging).length > 0)
      await tagCompleted(up, ctx, written, taggingQuery(input.tagging));
    const etag = await completedEtag(up, ctx, written, out.ETag);
    return compact({
      etag,
      size,
      versionId: out.VersionId,
      // The client asked for the whole body's checksum: that is what was checked here.
      checksums: requested && computed !== undefined ? { [requested]: computed } : {},
      checksumType: requested && computed !== undefined ? ('FULL_OBJECT' as const) : undefined,
    });
  } catch (err) {
    await Promise.allSettled(sends);
    await up.client
      .send(new AbortMultipartUploadCommand(ref), { abortSignal: AbortSignal.timeout(ABORT_TIMEOUT_MS) })
      .catch(() => undefined);
    throw fromUpstream(err, 'upload');
  }
}
