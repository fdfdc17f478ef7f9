// Bodies of unknown length (HTTP chunked, aws-chunked without x-amz-decoded-content-length, POST
// form files). Upstreams refuse a PutObject without Content-Length (411), so the body is spooled
// (./spool): up to the part size it is read whole, checked (Content-MD5, the client's checksum)
// and sent as one PutObject with its length and its checksum as a header; a longer body becomes
// a multipart upload upstream (./spooled-multipart.ts). An UploadPart of unknown length is
// spooled whole (at most 5 GiB) and sent the same way.
import { PutObjectCommand, UploadPartCommand } from '@aws-sdk/client-s3';
import type {
  PutObjectInput,
  PutObjectOutput,
  RequestContext,
  UploadPartInput,
  UploadPartOutput,
} from '@vgwrdma/backend-contract';
import { compact } from '../compact.js';
import { checksumsFrom, checksumTypeOf, objectAttributeFields, partFields } from '../convert.js';
import { BodyReader } from '../spool/body-reader.js';
import { BodyDigests } from '../spool/digests.js';
import { newSpool } from '../spool/spool-config.js';
import type { Upstream } from '../upstream.js';
import { sendSpool, upstreamChecksum } from './spool-send.js';
import { spooledMultipart } from './spooled-multipart.js';

/** S3's limit of one PutObject and of one part. */
export const MAX_SINGLE_UPLOAD = 5 * 1024 ** 3;

export async function spooledPutObject(
  up: Upstream,
  ctx: RequestContext,
  input: PutObjectInput,
): Promise<PutObjectOutput> {
  const reader = new BodyReader(input.body, MAX_SINGLE_UPLOAD);
  const digests = new BodyDigests(input);
  const first = newSpool(up.spool);
  try {
    await reader.fill(first, up.spool.partSize, digests.sinks);
    if (!(await reader.atEnd())) return await spooledMultipart(up, ctx, input, reader, first, digests);
    const computed = digests.verify();
    const algorithm = input.checksum?.algorithm;
    const out = await sendSpool(ctx, first, (body, o) =>
      up.streamClient.send(
        new PutObjectCommand({
          Bucket: input.bucket,
          Key: input.key,
          Body: body,
          ContentLength: first.size,
          ContentMD5: input.contentMD5,
          ...objectAttributeFields(input),
          ...upstreamChecksum(up, algorithm, computed),
          IfMatch: input.ifMatch,
          IfNoneMatch: input.ifNoneMatch,
        }),
        o,
      ),
    );
    const checksums = checksumsFrom(out);
    if (algorithm && computed !== undefined) checksums[algorithm] ??= computed;
    return compact({
      etag: out.ETag ?? '',
      size: first.size,
      versionId: out.VersionId,
      checksums,
      checksumType: checksumTypeOf(out.ChecksumType),
    });
  } finally {
    await first.dispose();
  }
}

export async function spooledUploadPart(
  up: Upstream,
  ctx: RequestContext,
  input: UploadPartInput,
): Promise<UploadPartOutput> {
  const reader = new BodyReader(input.body, MAX_SINGLE_UPLOAD);
  const digests = new BodyDigests(input);
  const spool = newSpool(up.spool);
  try {
    await reader.fill(spool, MAX_SINGLE_UPLOAD + 1, digests.sinks);
    const computed = digests.verify();
    const algorithm = input.checksum?.algorithm;
    const out = await sendSpool(
      ctx,
      spool,
      (body, o) =>
        up.streamClient.send(
          new UploadPartCommand({
            ...partFields(input),
            Body: body,
            ContentLength: spool.size,
            ContentMD5: input.contentMD5,
            ...upstreamChecksum(up, algorithm, computed),
          }),
          o,
        ),
      'upload',
    );
    const checksums = checksumsFrom(out);
    if (algorithm && computed !== undefined) checksums[algorithm] ??= computed;
    return { etag: out.ETag ?? '', size: spool.size, checksums };
  } finally {
    await spool.dispose();
  }
}
