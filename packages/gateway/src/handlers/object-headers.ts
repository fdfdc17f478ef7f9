// The response headers that describe an object (GET, HEAD): ETag, dates, content headers, user
// metadata, tag and part counts, lock state, checksums, and the response-* overrides a GET may ask for.
import {
  CHECKSUM_ALGORITHMS,
  type Checksums,
  type ChecksumType,
  checksumHeader,
  contentRangeHeader,
  type HeadObjectOutput,
} from '@vgwrdma/backend-contract';
import { isSendableHeaderValue, unsendableHeaderValue } from '../http/header-value.js';
import { CONTENT_HTTP_HEADERS, httpDate } from '../http/headers.js';
import { metadataHeaderValue } from '../http/metadata-header.js';
import type { HeaderMap } from './respond.js';

/** response-* query parameters → the header each one overrides. */
const RESPONSE_OVERRIDES = {
  'response-content-type': 'content-type',
  'response-content-language': 'content-language',
  'response-expires': 'expires',
  'response-cache-control': 'cache-control',
  'response-content-disposition': 'content-disposition',
  'response-content-encoding': 'content-encoding',
} as const;

/** The overrides asked for; InvalidArgument when a value cannot be sent as a header (CR, LF, ...). */
export function responseOverrides(query: URLSearchParams): HeaderMap | undefined {
  const out: HeaderMap = {};
  for (const [param, name] of Object.entries(RESPONSE_OVERRIDES)) {
    const v = query.get(param);
    if (v === null) continue;
    if (!isSendableHeaderValue(v)) throw unsendableHeaderValue(param);
    out[name] = v;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** x-amz-checksum-<alg> headers for every checksum present, plus x-amz-checksum-type. */
export function checksumHeaders(checksums: Checksums | undefined, type?: ChecksumType): HeaderMap {
  const out: HeaderMap = {};
  if (!checksums) return out;
  for (const alg of CHECKSUM_ALGORITHMS) {
    const v = checksums[alg];
    if (v !== undefined) out[checksumHeader(alg)] = v;
  }
  if (type && Object.keys(out).length > 0) out['x-amz-checksum-type'] = type;
  return out;
}

/** Status, headers and body length of a GET/HEAD answer. */
export function objectResponseHead(
  info: HeadObjectOutput,
  opts: { checksumMode: boolean; overrides: HeaderMap | undefined },
): { status: 200 | 206; headers: HeaderMap; length: number } {
  const headers: HeaderMap = {
    etag: info.etag,
    'last-modified': httpDate(info.lastModified),
    'accept-ranges': 'bytes',
    'content-type': info.contentType ?? 'binary/octet-stream',
  };
  for (const [field, name] of Object.entries(CONTENT_HTTP_HEADERS) as [
    keyof typeof CONTENT_HTTP_HEADERS,
    string,
  ][]) {
    const v = info[field];
    if (v !== undefined) headers[name] = v;
  }
  for (const [k, v] of Object.entries(info.metadata)) headers[`x-amz-meta-${k}`] = metadataHeaderValue(v);
  if (info.versionId !== undefined) headers['x-amz-version-id'] = info.versionId;
  if (info.storageClass !== undefined && info.storageClass !== 'STANDARD')
    headers['x-amz-storage-class'] = info.storageClass;
  if (info.tagCount) headers['x-amz-tagging-count'] = String(info.tagCount);
  if (info.partsCount !== undefined) headers['x-amz-mp-parts-count'] = String(info.partsCount);
  if (info.retention) {
    headers['x-amz-object-lock-mode'] = info.retention.Mode;
    headers['x-amz-object-lock-retain-until-date'] = info.retention.RetainUntilDate;
  }
  if (info.legalHold !== undefined) headers['x-amz-object-lock-legal-hold'] = info.legalHold ? 'ON' : 'OFF';
  if (info.deleteMarker) headers['x-amz-delete-marker'] = 'true';
  // A stored checksum describes the whole object: a partial answer must not carry it (clients
  // would validate the part against it and fail).
  const whole = !info.range || (info.range.start === 0 && info.range.end === info.size - 1);
  if (opts.checksumMode && whole) Object.assign(headers, checksumHeaders(info.checksums, info.checksumType));
  if (opts.overrides) Object.assign(headers, opts.overrides);

  let length = info.size;
  let status: 200 | 206 = 200;
  if (info.range) {
    status = 206;
    length = info.range.end - info.range.start + 1;
    headers['content-range'] = contentRangeHeader(info.range);
  }
  headers['content-length'] = String(length);
  return { status, headers, length };
}
