// Single-object operations forwarded upstream: PutObject (streamed through the upload guard),
// DeleteObject(s), CopyObject. The reads (GetObject, HeadObject) are object-reads.ts.
import {
  CopyObjectCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  PutObjectCommand,
} from '@aws-sdk/client-s3';
import { compact } from '../compact.js';
import { checksumsFrom, checksumTypeOf, copySource, objectAttributeFields } from '../convert.js';
import { call, checkBucket, type S3Op } from '../upstream.js';
import { checkWriteLimits, quotedETag, writeConditionETag } from '../upstream-quirks.js';
import { checkCopySource } from './copy-source.js';
import { spooledPutObject } from './spooled-put.js';
import { streamedUpload } from './streamed-upload.js';

export const putObject: S3Op<'putObject'> = async (up, ctx, input) => {
  checkBucket(up, input.bucket);
  checkWriteLimits(input.key, input.metadata);
  if (input.contentLength === undefined) return spooledPutObject(up, ctx, input);
  const { result, size, computed } = await streamedUpload(up, ctx, input, 'object', (body, spec, options) =>
    up.streamClient.send(
      new PutObjectCommand({
        Bucket: input.bucket,
        Key: input.key,
        Body: body,
        ContentLength: spec.contentLength,
        ...objectAttributeFields(input),
        ...spec.checksumFields,
        IfMatch: writeConditionETag(input.ifMatch),
        IfNoneMatch: writeConditionETag(input.ifNoneMatch),
      }),
      options,
    ),
  );
  const checksums = checksumsFrom(result);
  if (input.checksum && computed !== undefined) checksums[input.checksum.algorithm] ??= computed;
  return compact({
    etag: result.ETag ?? '',
    size,
    versionId: result.VersionId,
    checksums,
    checksumType: checksumTypeOf(result.ChecksumType),
  });
};

export const deleteObject: S3Op<'deleteObject'> = async (up, ctx, input) => {
  checkBucket(up, input.bucket);
  const out = await call(ctx, 'object', (o) =>
    up.client.send(
      new DeleteObjectCommand({
        Bucket: input.bucket,
        Key: input.key,
        VersionId: input.versionId,
        BypassGovernanceRetention: input.bypassGovernanceRetention,
        IfMatch: input.ifMatch,
      }),
      o,
    ),
  );
  return compact({ deleteMarker: out.DeleteMarker, versionId: out.VersionId });
};

export const deleteObjects: S3Op<'deleteObjects'> = async (up, ctx, input) => {
  checkBucket(up, input.bucket);
  const out = await call(ctx, 'bucket', (o) =>
    up.client.send(
      new DeleteObjectsCommand({
        Bucket: input.bucket,
        BypassGovernanceRetention: input.bypassGovernanceRetention,
        Delete: {
          Objects: input.objects.map((x) => ({ Key: x.key, VersionId: x.versionId })),
          Quiet: input.quiet,
        },
      }),
      o,
    ),
  );
  return {
    deleted: (out.Deleted ?? []).map((d) =>
      compact({
        key: d.Key ?? '',
        versionId: d.VersionId,
        deleteMarker: d.DeleteMarker,
        deleteMarkerVersionId: d.DeleteMarkerVersionId,
      }),
    ),
    errors: (out.Errors ?? []).map((e) =>
      compact({
        key: e.Key ?? '',
        versionId: e.VersionId,
        code: e.Code ?? 'InternalError',
        message: e.Message ?? '',
      }),
    ),
  };
};

export const copyObject: S3Op<'copyObject'> = async (up, ctx, input) => {
  checkBucket(up, input.bucket);
  checkBucket(up, input.source.bucket);
  await checkCopySource(up, ctx, input.source);
  const c = input.source.conditions;
  const replace = input.metadataDirective === 'REPLACE';
  checkWriteLimits(input.key, replace ? input.metadata : undefined);
  const attrs = objectAttributeFields(input);
  const out = await call(ctx, 'object', (o) =>
    up.client.send(
      new CopyObjectCommand({
        Bucket: input.bucket,
        Key: input.key,
        CopySource: copySource(input.source.bucket, input.source.key, input.source.versionId),
        CopySourceIfMatch: c?.ifMatch,
        CopySourceIfNoneMatch: c?.ifNoneMatch,
        CopySourceIfModifiedSince: c?.ifModifiedSince,
        CopySourceIfUnmodifiedSince: c?.ifUnmodifiedSince,
        MetadataDirective: input.metadataDirective,
        TaggingDirective: input.taggingDirective,
        ChecksumAlgorithm: input.checksumAlgorithm,
        // With COPY the upstream takes metadata and content headers from the source.
        ...(replace ? attrs : {}),
        Tagging: input.taggingDirective === 'REPLACE' ? attrs.Tagging : undefined,
        ObjectLockMode: attrs.ObjectLockMode,
        ObjectLockRetainUntilDate: attrs.ObjectLockRetainUntilDate,
        ObjectLockLegalHoldStatus: attrs.ObjectLockLegalHoldStatus,
      }),
      o,
    ),
  );
  const r = out.CopyObjectResult;
  return compact({
    etag: quotedETag(r?.ETag),
    lastModified: r?.LastModified ?? new Date(),
    versionId: out.VersionId,
    copySourceVersionId: out.CopySourceVersionId,
    checksums: r ? checksumsFrom(r) : undefined,
  });
};
