// Request headers parsed once into the backend's typed values: user metadata, content headers,
// conditional headers, tagging, dates. Handlers never re-parse header strings.
import {
  CONTENT_HEADER_NAMES,
  type Conditions,
  type ContentHeaders,
  S3Error,
  type TagSet,
  type UserMetadata,
} from '@vgwrdma/backend-contract';
import { tagSetOf } from '../xml/tag-set.js';

export type RawHeaders = Record<string, string | string[] | undefined>;

/** One header's value; repeated headers are joined with ',' as HTTP allows. */
export function header(headers: RawHeaders, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v.join(',') : v;
}

const META_PREFIX = 'x-amz-meta-';
/** S3's limit on the user-defined metadata of one object (names plus values, in bytes). */
const MAX_METADATA_BYTES = 2048;

export function parseUserMetadata(headers: RawHeaders): UserMetadata {
  const out: UserMetadata = {};
  let bytes = 0;
  for (const [name, raw] of Object.entries(headers)) {
    if (!name.startsWith(META_PREFIX) || raw === undefined) continue;
    const key = name.slice(META_PREFIX.length);
    const value = Array.isArray(raw) ? raw.join(',') : raw;
    bytes += Buffer.byteLength(key) + Buffer.byteLength(value);
    out[key] = value;
  }
  if (bytes > MAX_METADATA_BYTES) throw new S3Error('MetadataTooLarge');
  return out;
}

/**
 * The HTTP header carrying each content field, in requests and responses alike (the redirect
 * location is an x-amz- header on the wire).
 */
export const CONTENT_HTTP_HEADERS: Readonly<Record<keyof ContentHeaders, string>> = {
  ...CONTENT_HEADER_NAMES,
  websiteRedirectLocation: 'x-amz-website-redirect-location',
};

export function parseContentHeaders(headers: RawHeaders): ContentHeaders {
  const out: ContentHeaders = {};
  for (const [field, name] of Object.entries(CONTENT_HTTP_HEADERS) as [keyof ContentHeaders, string][]) {
    const v = header(headers, name);
    if (v !== undefined) out[field] = v;
  }
  if (out.contentEncoding !== undefined) {
    const stored = storedContentEncoding(out.contentEncoding);
    if (stored === undefined) delete out.contentEncoding;
    else out.contentEncoding = stored;
  }
  const redirect = out.websiteRedirectLocation;
  if (redirect !== undefined && !/^(https?:\/\/|\/)/.test(redirect))
    throw new S3Error('InvalidRedirectLocation');
  return out;
}

/**
 * The Content-Encoding an object keeps: the request's value as the client spelled it
 * (`deflate, gzip` stays `deflate, gzip`) without `aws-chunked`, which only frames the upload
 * (the body decoder removes it). `aws-chunked,gzip` stores `gzip`; `aws-chunked` alone stores
 * none, as S3 does.
 */
export function storedContentEncoding(value: string): string | undefined {
  const kept = value
    .split(',')
    .filter((coding) => coding.trim() !== '' && coding.trim().toLowerCase() !== 'aws-chunked');
  const out = kept.join(',').trim();
  return out === '' ? undefined : out;
}

/** An HTTP date (RFC 7231, or anything Date.parse reads); undefined when unparseable, as S3 ignores those. */
export function parseHttpDate(value: string | undefined): Date | undefined {
  if (value === undefined) return undefined;
  const t = Date.parse(value);
  return Number.isNaN(t) ? undefined : new Date(t);
}

/** RFC 7231 IMF-fixdate, as Last-Modified is written. */
export function httpDate(d: Date): string {
  return d.toUTCString();
}

/** If-* headers, or x-amz-copy-source-if-* with prefix 'x-amz-copy-source-'. */
export function parseConditions(headers: RawHeaders, prefix = ''): Conditions | undefined {
  const c: Conditions = {};
  const ifMatch = header(headers, `${prefix}if-match`);
  const ifNoneMatch = header(headers, `${prefix}if-none-match`);
  const ims = parseHttpDate(header(headers, `${prefix}if-modified-since`));
  const ius = parseHttpDate(header(headers, `${prefix}if-unmodified-since`));
  if (ifMatch !== undefined) c.ifMatch = ifMatch;
  if (ifNoneMatch !== undefined) c.ifNoneMatch = ifNoneMatch;
  if (ims) c.ifModifiedSince = ims;
  if (ius) c.ifUnmodifiedSince = ius;
  return Object.keys(c).length > 0 ? c : undefined;
}

/** x-amz-tagging: URL-encoded `k1=v1&k2=v2`. */
export function parseTaggingHeader(value: string | undefined): TagSet | undefined {
  if (value === undefined) return undefined;
  const pairs = [...new URLSearchParams(value)];
  return tagSetOf(pairs, 10);
}

/** An integer query parameter within [min, max]; InvalidArgument when not a number or below min. */
export function intParam(
  query: URLSearchParams,
  name: string,
  opts: { min: number; max?: number; default?: number },
): number | undefined {
  const raw = query.get(name);
  if (raw === null || raw === '') return opts.default;
  if (!/^-?\d+$/.test(raw)) throw invalidArgument(name, raw);
  const n = Number(raw);
  if (n < opts.min) throw invalidArgument(name, raw);
  return opts.max !== undefined ? Math.min(n, opts.max) : n;
}

function invalidArgument(name: string, value: string): S3Error {
  return new S3Error('InvalidArgument', undefined, { detail: { ArgumentName: name, ArgumentValue: value } });
}

/** A query parameter's value, with '' treated as absent. */
export function queryValue(query: URLSearchParams, name: string): string | undefined {
  const v = query.get(name);
  return v === null || v === '' ? undefined : v;
}
