// Listing operations forwarded upstream: ListObjects (v1), ListObjectsV2, ListObjectVersions.
import {
  ListObjectsCommand,
  ListObjectsV2Command,
  ListObjectVersionsCommand,
  type _Object as SdkObject,
} from '@aws-sdk/client-s3';
import type { ListedObject } from '@vgwrdma/backend-contract';
import { compact } from '../compact.js';
import { checksumAlgorithmOf, ownerFrom } from '../convert.js';
import { call, checkBucket, type S3Op } from '../upstream.js';

function listedObject(o: SdkObject): ListedObject {
  const algorithms = (o.ChecksumAlgorithm ?? []).map(checksumAlgorithmOf).filter((a) => a !== undefined);
  return compact({
    key: o.Key ?? '',
    lastModified: o.LastModified ?? new Date(0),
    etag: o.ETag ?? '',
    size: o.Size ?? 0,
    storageClass: o.StorageClass ?? 'STANDARD',
    owner: ownerFrom(o.Owner),
    checksumAlgorithm: algorithms.length > 0 ? algorithms : undefined,
  });
}

function prefixes(list: { Prefix?: string | undefined }[] | undefined): string[] {
  return (list ?? []).map((p) => p.Prefix ?? '');
}

export const listObjects: S3Op<'listObjects'> = async (up, ctx, input) => {
  checkBucket(up, input.bucket);
  const out = await call(ctx, 'bucket', (o) =>
    up.client.send(
      new ListObjectsCommand({
        Bucket: input.bucket,
        Prefix: input.prefix,
        Delimiter: input.delimiter,
        Marker: input.marker,
        MaxKeys: input.maxKeys,
      }),
      o,
    ),
  );
  return compact({
    contents: (out.Contents ?? []).map(listedObject),
    commonPrefixes: prefixes(out.CommonPrefixes),
    isTruncated: out.IsTruncated === true,
    nextMarker: out.NextMarker,
  });
};

export const listObjectsV2: S3Op<'listObjectsV2'> = async (up, ctx, input) => {
  checkBucket(up, input.bucket);
  const out = await call(ctx, 'bucket', (o) =>
    up.client.send(
      new ListObjectsV2Command({
        Bucket: input.bucket,
        Prefix: input.prefix,
        Delimiter: input.delimiter,
        ContinuationToken: input.continuationToken,
        StartAfter: input.startAfter,
        FetchOwner: input.fetchOwner,
        MaxKeys: input.maxKeys,
      }),
      o,
    ),
  );
  return compact({
    contents: (out.Contents ?? []).map(listedObject),
    commonPrefixes: prefixes(out.CommonPrefixes),
    isTruncated: out.IsTruncated === true,
    nextContinuationToken: out.NextContinuationToken,
  });
};

export const listObjectVersions: S3Op<'listObjectVersions'> = async (up, ctx, input) => {
  checkBucket(up, input.bucket);
  const out = await call(ctx, 'bucket', (o) =>
    up.client.send(
      new ListObjectVersionsCommand({
        Bucket: input.bucket,
        Prefix: input.prefix,
        Delimiter: input.delimiter,
        KeyMarker: input.keyMarker,
        VersionIdMarker: input.versionIdMarker,
        MaxKeys: input.maxKeys,
      }),
      o,
    ),
  );
  return compact({
    versions: (out.Versions ?? []).map((v) =>
      compact({
        key: v.Key ?? '',
        versionId: v.VersionId ?? 'null',
        isLatest: v.IsLatest === true,
        lastModified: v.LastModified ?? new Date(0),
        etag: v.ETag ?? '',
        size: v.Size ?? 0,
        storageClass: v.StorageClass ?? 'STANDARD',
        owner: ownerFrom(v.Owner),
      }),
    ),
    deleteMarkers: (out.DeleteMarkers ?? []).map((d) =>
      compact({
        key: d.Key ?? '',
        versionId: d.VersionId ?? 'null',
        isLatest: d.IsLatest === true,
        lastModified: d.LastModified ?? new Date(0),
        owner: ownerFrom(d.Owner),
      }),
    ),
    commonPrefixes: prefixes(out.CommonPrefixes),
    isTruncated: out.IsTruncated === true,
    nextKeyMarker: out.NextKeyMarker,
    nextVersionIdMarker: out.NextVersionIdMarker,
  });
};
