// Splits the raw request-target (exactly as the client sent it, before any decoding) into what
// SigV4 needs (raw path and query) and what the router needs (bucket, decoded key, query).
// Path-style (`/bucket/key`), or virtual-host style (`bucket.<domain>/key`) when the caller has
// taken the bucket from the Host header.
import { S3Error } from '@vgwrdma/backend-contract';

export interface RequestTarget {
  /** The path as sent, percent-encoding intact (SigV4 canonicalises this). */
  rawPath: string;
  /** The query string as sent, without '?'. */
  rawQuery: string;
  query: URLSearchParams;
  /** Decoded bucket name; undefined for service requests (`/`). */
  bucket?: string;
  /** Decoded object key; undefined for service and bucket requests. */
  key?: string;
}

export const MAX_KEY_BYTES = 1024;

/** AWS's answer to a path it cannot read as UTF-8 text (400). */
const unreadable = (): S3Error => S3Error.custom('InvalidURI', "Couldn't parse the specified URI.");

/** Bytes the client sent unescaped (Node hands them over one latin1 character each), %-escaped. */
const escapeRawBytes = (segment: string): string =>
  segment.replace(/[\u0080-\u00ff]+/g, (raw) =>
    [...Buffer.from(raw, 'latin1')].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join(''),
  );

/**
 * A %-decoded path segment. Bytes that are not UTF-8 (escaped or sent raw), and the C1 control
 * characters U+0080..U+009F, are InvalidURI (400) as on AWS, never a key that reads as another.
 */
function decode(segment: string): string {
  let text: string;
  try {
    text = decodeURIComponent(escapeRawBytes(segment));
  } catch {
    throw unreadable();
  }
  if (/[\u0080-\u009f]/.test(text)) throw unreadable();
  return text;
}

/**
 * The bucket a virtual-host–style request names: the Host (port stripped) minus `.<domain>`.
 * Undefined when the host is the domain itself or not under it (a path-style request).
 */
export function virtualHostBucket(host: string | undefined, domain: string | undefined): string | undefined {
  if (!host || !domain) return undefined;
  const name = host.replace(/:\d+$/, '').toLowerCase();
  const suffix = `.${domain.toLowerCase()}`;
  return name.endsWith(suffix) && name.length > suffix.length ? name.slice(0, -suffix.length) : undefined;
}

export function parseRequestTarget(rawUrl: string, hostBucket?: string): RequestTarget {
  let url = rawUrl;
  // absolute-form (`GET http://host/path HTTP/1.1`), used by some proxies.
  if (!url.startsWith('/')) {
    const m = /^[a-z][a-z0-9+.-]*:\/\/[^/?]*/i.exec(url);
    url = m ? url.slice(m[0].length) || '/' : `/${url}`;
  }
  const q = url.indexOf('?');
  const rawPath = q === -1 ? url : url.slice(0, q);
  const rawQuery = q === -1 ? '' : url.slice(q + 1);
  const query = new URLSearchParams(rawQuery);
  if (hostBucket !== undefined) {
    const key = rawPath.length > 1 ? decode(rawPath.slice(1)) : undefined;
    if (key === undefined) return { rawPath, rawQuery, query, bucket: hostBucket };
    if (Buffer.byteLength(key) > MAX_KEY_BYTES) throw new S3Error('KeyTooLongError');
    return { rawPath, rawQuery, query, bucket: hostBucket, key };
  }
  const path = rawPath.slice(1);
  if (path === '') return { rawPath, rawQuery, query };
  const slash = path.indexOf('/');
  if (slash === -1 || slash === path.length - 1) {
    return { rawPath, rawQuery, query, bucket: decode(slash === -1 ? path : path.slice(0, slash)) };
  }
  const bucket = decode(path.slice(0, slash));
  const key = decode(path.slice(slash + 1));
  if (Buffer.byteLength(key) > MAX_KEY_BYTES) throw new S3Error('KeyTooLongError');
  return { rawPath, rawQuery, query, bucket, key };
}
