// Multipart uploads passed through: the upstream owns the upload ids and the parts; UploadPart
// streams like PutObject, Complete and the listings are forwarded. Tags given at Create are
// remembered (../upload-tagging.ts) and put on the object after Complete, as some upstreams
// (Ceph RGW 16.2) drop them.
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  ListMultipartUploadsCommand,
  ListPartsCommand,
  UploadPartCommand,
  UploadPartCopyCommand,
} from '@aws-sdk/client-s3';
import { compact } from '../compact.js';
import {
  checksumAlgorithmOf,
  checksumFields,
  checksumsFrom,
  checksumTypeOf,
  copySource,
  objectAttributeFields,
  ownerFrom,
  partFields,
  taggingQuery,
  uploadFields,
} from '../convert.js';
import { call, checkBucket, type S3Op } from '../upstream.js';
import { checkPartOrder, checkWriteLimits, quotedETag, writeConditionETag } from '../upstream-quirks.js';
import { tagCompleted } from './completed-object.js';
import { checkCopySource } from './copy-source.js';
import { asUploadError, completedETag, uploadGone } from './multipart-quirks.js';
import { spooledUploadPart } from './spooled-put.js';
import { streamedUpload } from './streamed-upload.js';

export const createMultipartUpload: S3Op<'createMultipartUpload'> = async (up, ctx, input) => {
  checkBucket(up, input.bucket);
  checkWriteLimits(input.key, input.metadata);
  const out = await call(ctx, 'bucket', (o) =>
    up.client.send(
      new CreateMultipartUploadCommand({
        Bucket: input.bucket,
        Key: input.key,
        ...objectAttributeFields(input),
        ChecksumAlgorithm: input.checksumAlgorithm,
        ChecksumType: input.checksumType,
      }),
      o,
    ),
  );
  const uploadId = out.UploadId ?? '';
  if (input.tagging && Object.keys(input.tagging).length > 0) {
    const key = { bucket: input.bucket, uploadId };
    try {
      await up.uploadTagging.remember(key, taggingQuery(input.tagging), ctx.signal);
    } catch (err) {
      // Tags that would be lost at Complete: take the new upload back.
      await abortMultipartUpload(up, ctx, { bucket: input.bucket, key: input.key, uploadId }).catch(
        () => undefined,
      );
      throw err;
    }
  }
  return compact({
    bucket: out.Bucket ?? input.bucket,
    key: out.Key ?? input.key,
    uploadId,
    checksumAlgorithm: checksumAlgorithmOf(out.ChecksumAlgorithm) ?? input.checksumAlgorithm,
    checksumType: checksumTypeOf(out.ChecksumType) ?? input.checksumType,
  });
};

export const uploadPart: S3Op<'uploadPart'> = async (up, ctx, input) => {
  checkBucket(up, input.bucket);
  if (input.contentLength === undefined) return spooledUploadPart(up, ctx, input);
  const { result, size, computed } = await streamedUpload(up, ctx, input, 'upload', (body, spec, options) =>
    up.streamClient.send(
      new UploadPartCommand({
        ...partFields(input),
        Body: body,
        ContentLength: spec.contentLength,
        ...spec.checksumFields,
      }),
      options,
    ),
  );
  const checksums = checksumsFrom(result);
  if (input.checksum && computed !== undefined) checksums[input.checksum.algorithm] ??= computed;
  return { etag: result.ETag ?? '', size, checksums };
};

export const uploadPartCopy: S3Op<'uploadPartCopy'> = async (up, ctx, input) => {
  checkBucket(up, input.bucket);
  checkBucket(up, input.source.bucket);
  await checkCopySource(up, ctx, input.source);
  const c = input.source.conditions;
  const out = await call(ctx, 'upload', (o) =>
    up.client.send(
      new UploadPartCopyCommand({
        ...partFields(input),
        CopySource: copySource(input.source.bucket, input.source.key, input.source.versionId),
        CopySourceRange: input.sourceRange && `bytes=${input.sourceRange.start}-${input.sourceRange.end}`,
        CopySourceIfMatch: c?.ifMatch,
        CopySourceIfNoneMatch: c?.ifNoneMatch,
        CopySourceIfModifiedSince: c?.ifModifiedSince,
        CopySourceIfUnmodifiedSince: c?.ifUnmodifiedSince,
      }),
      o,
    ),
  );
  const r = out.CopyPartResult;
  return compact({
    etag: quotedETag(r?.ETag),
    lastModified: r?.LastModified ?? new Date(),
    copySourceVersionId: out.CopySourceVersionId,
    checksums: r ? checksumsFrom(r) : undefined,
  });
};

export const completeMultipartUpload: S3Op<'completeMultipartUpload'> = async (up, ctx, input) => {
  checkBucket(up, input.bucket);
  checkPartOrder(input.parts);
  const tagKey = { bucket: input.bucket, uploadId: input.uploadId };
  const tagging = await up.uploadTagging.recall(tagKey, ctx.signal);
  const out = await uploadGone(up, ctx, input, () =>
    call(ctx, 'upload', (o) =>
      up.client.send(
        new CompleteMultipartUploadCommand({
          ...uploadFields(input),
          MultipartUpload: {
            Parts: input.parts.map((p) => ({
              PartNumber: p.partNumber,
              ETag: p.etag,
              ...checksumFields(p.checksums),
            })),
          },
          ...checksumFields(input.checksums),
          ChecksumType: input.checksumType,
          MpuObjectSize: input.objectSize,
          IfMatch: writeConditionETag(input.ifMatch),
          IfNoneMatch: writeConditionETag(input.ifNoneMatch),
        }),
        o,
      ),
    ),
  );
  if (tagging !== undefined) {
    await tagCompleted(up, ctx, { ...input, versionId: out.VersionId }, tagging);
    await up.uploadTagging.forget(tagKey, ctx.signal);
  }
  const checksums = checksumsFrom(out);
  return compact({
    bucket: out.Bucket ?? input.bucket,
    key: out.Key ?? input.key,
    etag: await completedETag(up, ctx, input, out),
    versionId: out.VersionId,
    checksums: Object.keys(checksums).length > 0 ? checksums : undefined,
    checksumType: checksumTypeOf(out.ChecksumType),
  });
};

export const abortMultipartUpload: S3Op<'abortMultipartUpload'> = async (up, ctx, input) => {
  checkBucket(up, input.bucket);
  await call(ctx, 'upload', (o) => up.client.send(new AbortMultipartUploadCommand(uploadFields(input)), o));
  await up.uploadTagging.forget({ bucket: input.bucket, uploadId: input.uploadId }, ctx.signal);
};

export const listParts: S3Op<'listParts'> = async (up, ctx, input) => {
  checkBucket(up, input.bucket);
  const out = await asUploadError(() =>
    call(ctx, 'upload', (o) =>
      up.client.send(
        new ListPartsCommand({
          ...uploadFields(input),
          PartNumberMarker: input.partNumberMarker === undefined ? undefined : String(input.partNumberMarker),
          MaxParts: input.maxParts,
        }),
        o,
      ),
    ),
  );
  const next = out.NextPartNumberMarker === undefined ? undefined : Number(out.NextPartNumberMarker);
  return compact({
    bucket: input.bucket,
    key: input.key,
    uploadId: input.uploadId,
    parts: (out.Parts ?? []).map((p) => {
      const checksums = checksumsFrom(p);
      return compact({
        partNumber: p.PartNumber ?? 0,
        etag: p.ETag ?? '',
        size: p.Size ?? 0,
        lastModified: p.LastModified ?? new Date(0),
        checksums: Object.keys(checksums).length > 0 ? checksums : undefined,
      });
    }),
    partNumberMarker: Number(out.PartNumberMarker ?? input.partNumberMarker ?? 0),
    nextPartNumberMarker: next,
    maxParts: out.MaxParts ?? input.maxParts,
    isTruncated: out.IsTruncated === true,
    owner: ownerFrom(out.Owner),
    initiator:
      out.Initiator?.ID === undefined
        ? undefined
        : compact({ id: out.Initiator.ID, displayName: out.Initiator.DisplayName }),
    storageClass: out.StorageClass ?? 'STANDARD',
    checksumAlgorithm: checksumAlgorithmOf(out.ChecksumAlgorithm),
    checksumType: checksumTypeOf(out.ChecksumType),
  });
};

export const listMultipartUploads: S3Op<'listMultipartUploads'> = async (up, ctx, input) => {
  checkBucket(up, input.bucket);
  const out = await call(ctx, 'bucket', (o) =>
    up.client.send(
      new ListMultipartUploadsCommand({
        Bucket: input.bucket,
        Prefix: input.prefix,
        Delimiter: input.delimiter,
        KeyMarker: input.keyMarker,
        UploadIdMarker: input.uploadIdMarker,
        MaxUploads: input.maxUploads,
      }),
      o,
    ),
  );
  return compact({
    bucket: input.bucket,
    uploads: (out.Uploads ?? []).map((u) =>
      compact({
        key: u.Key ?? '',
        uploadId: u.UploadId ?? '',
        initiated: u.Initiated ?? new Date(0),
        storageClass: u.StorageClass ?? 'STANDARD',
        owner: ownerFrom(u.Owner),
        initiator:
          u.Initiator?.ID === undefined
            ? undefined
            : compact({ id: u.Initiator.ID, displayName: u.Initiator.DisplayName }),
        checksumAlgorithm: checksumAlgorithmOf(u.ChecksumAlgorithm),
        checksumType: checksumTypeOf(u.ChecksumType),
      }),
    ),
    commonPrefixes: (out.CommonPrefixes ?? []).map((p) => p.Prefix ?? ''),
    isTruncated: out.IsTruncated === true,
    keyMarker: input.keyMarker,
    uploadIdMarker: input.uploadIdMarker,
    nextKeyMarker: out.NextKeyMarker,
    nextUploadIdMarker: out.NextUploadIdMarker,
    maxUploads: out.MaxUploads ?? input.maxUploads,
  });
};
