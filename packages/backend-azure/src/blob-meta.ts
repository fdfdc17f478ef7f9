// What an S3 object keeps beside its bytes, encoded into Blob Storage's blob metadata. Azure
// metadata names must be C# identifiers and values plain ASCII, so S3 user metadata (any UTF-8,
// names with dashes) travels as one base64url JSON entry, and the S3 ETag (an MD5, which Azure's
// own ETag is not) and the checksums get entries of their own. Content headers map onto the
// blob's HTTP headers, except Expires and the website redirect, which Blob Storage lacks.
import type { BlobHTTPHeaders } from '@azure/storage-blob';
import type { Checksums, ChecksumType, ContentHeaders, UserMetadata } from '@vgwrdma/backend-contract';

/** The metadata names this backend writes (Azure lower-cases names on the way back). */
export const META = {
  etag: 's3etag',
  user: 's3meta',
  checksums: 's3sums',
  parts: 's3parts',
  expires: 's3expires',
  redirect: 's3redirect',
  /** `<uploadId>.<parts signature>` of the upload that made the object (repeated Complete). */
  upload: 's3upload',
} as const;

export interface StoredObject {
  etag: string;
  metadata: UserMetadata;
  checksums: Checksums;
  checksumType?: ChecksumType;
  /** Number of parts, for objects made by CompleteMultipartUpload. */
  partsCount?: number;
  headers: ContentHeaders;
}

export const encodeJson = (value: unknown): string =>
  Buffer.from(JSON.stringify(value)).toString('base64url');

export function decodeJson<T>(value: string | undefined, fallback: T): T {
  if (value === undefined) return fallback;
  try {
    return JSON.parse(Buffer.from(value, 'base64url').toString()) as T;
  } catch {
    return fallback;
  }
}

/** The blob metadata for a new object. */
export function objectMetadata(o: StoredObject, upload?: string): Record<string, string> {
  const m: Record<string, string> = { [META.etag]: o.etag };
  if (Object.keys(o.metadata).length > 0) m[META.user] = encodeJson(o.metadata);
  if (Object.keys(o.checksums).length > 0)
    m[META.checksums] = encodeJson({ c: o.checksums, t: o.checksumType });
  if (o.partsCount !== undefined) m[META.parts] = String(o.partsCount);
  if (o.headers.expires !== undefined) m[META.expires] = encodeJson(o.headers.expires);
  if (o.headers.websiteRedirectLocation !== undefined)
    m[META.redirect] = encodeJson(o.headers.websiteRedirectLocation);
  if (upload !== undefined) m[META.upload] = upload;
  return m;
}

export function httpHeaders(h: ContentHeaders): BlobHTTPHeaders {
  const out: BlobHTTPHeaders = {};
  if (h.contentType !== undefined) out.blobContentType = h.contentType;
  if (h.contentEncoding !== undefined) out.blobContentEncoding = h.contentEncoding;
  if (h.contentLanguage !== undefined) out.blobContentLanguage = h.contentLanguage;
  if (h.contentDisposition !== undefined) out.blobContentDisposition = h.contentDisposition;
  if (h.cacheControl !== undefined) out.blobCacheControl = h.cacheControl;
  return out;
}

/** The blob properties an object is read back from (getProperties and download both carry them). */
export interface BlobProps {
  metadata?: Record<string, string>;
  etag?: string;
  contentType?: string;
  contentEncoding?: string;
  contentLanguage?: string;
  contentDisposition?: string;
  cacheControl?: string;
}

export function readStored(p: BlobProps): StoredObject {
  const m = p.metadata ?? {};
  const sums = decodeJson<{ c?: Checksums; t?: ChecksumType }>(m[META.checksums], {});
  const headers: ContentHeaders = {};
  if (p.contentType) headers.contentType = p.contentType;
  if (p.contentEncoding) headers.contentEncoding = p.contentEncoding;
  if (p.contentLanguage) headers.contentLanguage = p.contentLanguage;
  if (p.contentDisposition) headers.contentDisposition = p.contentDisposition;
  if (p.cacheControl) headers.cacheControl = p.cacheControl;
  const expires = decodeJson<string | undefined>(m[META.expires], undefined);
  if (expires !== undefined) headers.expires = expires;
  const redirect = decodeJson<string | undefined>(m[META.redirect], undefined);
  if (redirect !== undefined) headers.websiteRedirectLocation = redirect;
  const out: StoredObject = {
    // A blob written by another tool has no S3 ETag: its Azure ETag stands in (quoted, as S3's are).
    etag: m[META.etag] ?? `"${(p.etag ?? '').replace(/"/g, '')}"`,
    metadata: decodeJson<UserMetadata>(m[META.user], {}),
    checksums: sums.c ?? {},
    headers,
  };
  if (sums.t) out.checksumType = sums.t;
  const parts = m[META.parts];
  if (parts !== undefined) out.partsCount = Number(parts);
  return out;
}
