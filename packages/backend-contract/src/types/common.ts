// Value types shared by many Backend operations.
import type { Readable } from 'node:stream';

export type ChecksumAlgorithm = 'CRC32' | 'CRC32C' | 'CRC64NVME' | 'SHA1' | 'SHA256';
export const CHECKSUM_ALGORITHMS: readonly ChecksumAlgorithm[] = [
  'CRC32',
  'CRC32C',
  'CRC64NVME',
  'SHA1',
  'SHA256',
];
export type ChecksumType = 'COMPOSITE' | 'FULL_OBJECT';

/** base64 checksum values by algorithm. */
export type Checksums = Partial<Record<ChecksumAlgorithm, string>>;

/**
 * A checksum the client asked to be verified and stored. The expected value may only be known
 * after the body ends (aws-chunked trailer), hence a function called once the body is consumed.
 * A backend computes `algorithm` over the bytes it stored and answers BadDigest on mismatch,
 * before anything becomes visible.
 */
export interface ChecksumRequest {
  readonly algorithm: ChecksumAlgorithm;
  readonly type?: ChecksumType;
  readonly expected?: () => string | undefined;
  /**
   * The expected value when the client sent it as a header, so it is known before the body (a
   * proxy can pass it on as a header); absent when it comes in a trailer (ask `expected` then).
   */
  readonly upfront?: string;
}

/** The standard representation headers stored with an object. */
export interface ContentHeaders {
  contentType?: string;
  contentEncoding?: string;
  contentLanguage?: string;
  contentDisposition?: string;
  cacheControl?: string;
  expires?: string;
  websiteRedirectLocation?: string;
}
export const CONTENT_HEADER_NAMES = {
  contentType: 'content-type',
  contentEncoding: 'content-encoding',
  contentLanguage: 'content-language',
  contentDisposition: 'content-disposition',
  cacheControl: 'cache-control',
  expires: 'expires',
  websiteRedirectLocation: 'website-redirect-location',
} as const satisfies Record<keyof ContentHeaders, string>;

/** The content headers present on `from` (an input, stored attributes), and nothing else. */
export function pickContentHeaders(from: ContentHeaders): ContentHeaders {
  const out: ContentHeaders = {};
  for (const k of Object.keys(CONTENT_HEADER_NAMES) as (keyof ContentHeaders)[]) {
    const v = from[k];
    if (v !== undefined) out[k] = v;
  }
  return out;
}

/** x-amz-meta-* pairs: keys lower-case, without the prefix. */
export type UserMetadata = Record<string, string>;
export type TagSet = Record<string, string>;

export interface Owner {
  id: string;
  displayName?: string;
}

/** A Range header, parsed; resolved against the object size by the backend. */
export type ByteRange =
  | { readonly kind: 'range'; readonly first: number; readonly last?: number }
  | { readonly kind: 'suffix'; readonly length: number };

/** A resolved range: inclusive byte offsets within an object of `size` bytes. */
export interface ResolvedRange {
  readonly start: number;
  readonly end: number;
  readonly size: number;
}

/** Conditional request headers (If-*), parsed. */
export interface Conditions {
  ifMatch?: string;
  ifNoneMatch?: string;
  ifModifiedSince?: Date;
  ifUnmodifiedSince?: Date;
}

export type ObjectLockMode = 'GOVERNANCE' | 'COMPLIANCE';
export interface ObjectRetention {
  Mode: ObjectLockMode;
  RetainUntilDate: string;
}

export type Body = Readable;
