// Conversions between this project's Backend types and the SDK's request/response shapes that
// several operations share: checksums, ranges, content headers, object attributes, tags, owners,
// copy sources. Each is a table or a small pure function.
import type { HeadObjectOutput as SdkHeadObjectOutput, Owner as SdkOwner, Tag } from '@aws-sdk/client-s3';
import type {
  ByteRange,
  ChecksumAlgorithm,
  Checksums,
  ChecksumType,
  ContentHeaders,
  HeadObjectOutput,
  ObjectAttributesInput,
  Owner,
  ResolvedRange,
  TagSet,
  UploadRef,
} from '@vgwrdma/backend-contract';
import { CHECKSUM_ALGORITHMS } from '@vgwrdma/backend-contract';
import { compact } from './compact.js';
import { partsCountOf } from './upstream-quirks.js';

/** The SDK field carrying each algorithm's value, on inputs and outputs alike. */
const CHECKSUM_FIELD = {
  CRC32: 'ChecksumCRC32',
  CRC32C: 'ChecksumCRC32C',
  CRC64NVME: 'ChecksumCRC64NVME',
  SHA1: 'ChecksumSHA1',
  SHA256: 'ChecksumSHA256',
} as const satisfies Record<ChecksumAlgorithm, string>;

type ChecksumFields = { [F in (typeof CHECKSUM_FIELD)[ChecksumAlgorithm]]?: string | undefined };

export function checksumsFrom(out: ChecksumFields): Checksums {
  const checksums: Checksums = {};
  for (const alg of CHECKSUM_ALGORITHMS) {
    const value = out[CHECKSUM_FIELD[alg]];
    if (value) checksums[alg] = value;
  }
  return checksums;
}

export function checksumFields(checksums: Checksums | undefined): ChecksumFields {
  const fields: ChecksumFields = {};
  for (const alg of CHECKSUM_ALGORITHMS) {
    const value = checksums?.[alg];
    if (value !== undefined) fields[CHECKSUM_FIELD[alg]] = value;
  }
  return fields;
}

export function checksumTypeOf(value: string | undefined): ChecksumType | undefined {
  return value === 'COMPOSITE' || value === 'FULL_OBJECT' ? value : undefined;
}

export function checksumAlgorithmOf(value: string | undefined): ChecksumAlgorithm | undefined {
  return (CHECKSUM_ALGORITHMS as readonly string[]).includes(value ?? '')
    ? (value as ChecksumAlgorithm)
    : undefined;
}

/** A parsed Range back into its header form. */
export function rangeHeader(range: ByteRange): string {
  return range.kind === 'suffix' ? `bytes=-${range.length}` : `bytes=${range.first}-${range.last ?? ''}`;
}

/** `bytes 10-19/100` → { start: 10, end: 19, size: 100 }. */
export function parseContentRange(value: string | undefined): ResolvedRange | undefined {
  const m = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(value?.trim() ?? '');
  if (!m) return undefined;
  return { start: Number(m[1]), end: Number(m[2]), size: Number(m[3]) };
}

/** Content headers for a write (Expires goes as a date: the SDK formats it as an HTTP date). */
function contentHeaderFields(h: ContentHeaders) {
  const expires = h.expires === undefined ? undefined : new Date(h.expires);
  return {
    ContentType: h.contentType,
    ContentEncoding: h.contentEncoding,
    ContentLanguage: h.contentLanguage,
    ContentDisposition: h.contentDisposition,
    CacheControl: h.cacheControl,
    Expires: expires && !Number.isNaN(expires.getTime()) ? expires : undefined,
    WebsiteRedirectLocation: h.websiteRedirectLocation,
  };
}

/** What a new object is created with: content headers, metadata, tags, object lock. */
export function objectAttributeFields(a: ObjectAttributesInput) {
  return {
    ...contentHeaderFields(a),
    Metadata: a.metadata,
    Tagging: a.tagging === undefined ? undefined : taggingQuery(a.tagging),
    ObjectLockMode: a.retention?.Mode,
    ObjectLockRetainUntilDate: a.retention ? new Date(a.retention.RetainUntilDate) : undefined,
    ObjectLockLegalHoldStatus:
      a.legalHold === undefined ? undefined : a.legalHold ? ('ON' as const) : ('OFF' as const),
  };
}

/** Tags in the x-amz-tagging header form (URL query encoding). */
export function taggingQuery(tags: TagSet): string {
  return new URLSearchParams(Object.entries(tags)).toString();
}

export function tagsToSdk(tags: TagSet): Tag[] {
  return Object.entries(tags).map(([Key, Value]) => ({ Key, Value }));
}

export function tagsFromSdk(tags: Tag[] | undefined): TagSet {
  const out: TagSet = {};
  for (const t of tags ?? []) if (t.Key !== undefined) out[t.Key] = t.Value ?? '';
  return out;
}

export function ownerFrom(owner: SdkOwner | undefined): Owner | undefined {
  if (owner?.ID === undefined) return undefined;
  return compact({ id: owner.ID, displayName: owner.DisplayName });
}

/** x-amz-copy-source: `bucket/key` with the key URL-encoded per segment, and the version. */
export function copySource(bucket: string, key: string, versionId?: string): string {
  const path = `${bucket}/${key.split('/').map(encodeURIComponent).join('/')}`;
  return versionId === undefined ? path : `${path}?versionId=${encodeURIComponent(versionId)}`;
}

/** HeadObject/GetObject output → what HEAD answers about the object (and the range served). */
export function objectInfoFrom(key: string, out: SdkHeadObjectOutput): HeadObjectOutput {
  const range = parseContentRange(out.ContentRange);
  const retention =
    out.ObjectLockMode !== undefined && out.ObjectLockRetainUntilDate !== undefined
      ? { Mode: out.ObjectLockMode, RetainUntilDate: out.ObjectLockRetainUntilDate.toISOString() }
      : undefined;
  const checksums = checksumsFrom(out);
  return compact({
    key,
    etag: out.ETag ?? '',
    size: range?.size ?? out.ContentLength ?? 0,
    lastModified: out.LastModified ?? new Date(0),
    metadata: out.Metadata ?? {},
    contentType: out.ContentType,
    contentEncoding: out.ContentEncoding,
    contentLanguage: out.ContentLanguage,
    contentDisposition: out.ContentDisposition,
    cacheControl: out.CacheControl,
    expires: out.ExpiresString,
    websiteRedirectLocation: out.WebsiteRedirectLocation,
    versionId: out.VersionId,
    storageClass: out.StorageClass,
    checksums: Object.keys(checksums).length > 0 ? checksums : undefined,
    checksumType: checksumTypeOf(out.ChecksumType),
    tagCount: (out as { TagCount?: number }).TagCount,
    retention,
    legalHold:
      out.ObjectLockLegalHoldStatus === undefined ? undefined : out.ObjectLockLegalHoldStatus === 'ON',
    partsCount: partsCountOf(out.PartsCount, out.ETag),
    deleteMarker: out.DeleteMarker,
    range,
  });
}

/** The SDK's fields naming an upload: Bucket, Key, UploadId. */
export function uploadFields(ref: UploadRef) {
  return { Bucket: ref.bucket, Key: ref.key, UploadId: ref.uploadId };
}

/** The SDK's fields naming one part of an upload. */
export function partFields(ref: UploadRef & { readonly partNumber: number }) {
  return { ...uploadFields(ref), PartNumber: ref.partNumber };
}
