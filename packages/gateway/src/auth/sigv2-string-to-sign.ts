// SigV2's StringToSign: the method, Content-MD5, Content-Type, the date (or a presigned URL's
// Expires), every x-amz-* header, then the resource with the sub-resources that select what the
// request acts on. Every x-amz-* header the request carries is part of it by construction, so
// under SigV2 no such header can be added to a signed request; nothing else is covered (not
// Host, not a plugin's own headers: a plugin that must have them signed refuses SigV2 itself).
import type { RawQueryParam } from './canonical-request.js';
import { headerValue } from './request-headers.js';
import type { RequestHeaders } from './types.js';
import { uriDecode } from './uri-encoding.js';

/**
 * Query parameters that belong to the signed resource (AWS's list plus the newer sub-resources
 * the SDKs sign); every other parameter is outside the signature, as in S3.
 */
const SUBRESOURCES: ReadonlySet<string> = new Set([
  'accelerate',
  'acl',
  'analytics',
  'cors',
  'delete',
  'inventory',
  'lifecycle',
  'location',
  'logging',
  'metrics',
  'notification',
  'object-lock',
  'partNumber',
  'policy',
  'replication',
  'requestPayment',
  'response-cache-control',
  'response-content-disposition',
  'response-content-encoding',
  'response-content-language',
  'response-content-type',
  'response-expires',
  'restore',
  'select',
  'select-type',
  'storageClass',
  'tagging',
  'torrent',
  'uploadId',
  'uploads',
  'versionId',
  'versioning',
  'versions',
  'website',
]);

const AMZ_PREFIX = 'x-amz-';

/**
 * The x-amz-* headers as `name:value` lines (sorted, repeats joined with ','), plus for a
 * presigned URL the x-amz-* query parameters a signer moved there that the request does not
 * also carry as headers.
 */
export function canonicalAmzHeaders(
  headers: RequestHeaders,
  fromQuery: ReadonlyMap<string, string> = new Map(),
): { block: string; names: string[] } {
  const values = new Map<string, string>();
  for (const name of Object.keys(headers)) {
    const raw = headers[name];
    if (raw === undefined || !name.startsWith(AMZ_PREFIX)) continue;
    values.set(name, (typeof raw === 'string' ? [raw] : raw).map((v) => v.trim()).join(','));
  }
  for (const [name, value] of fromQuery) {
    const lower = name.toLowerCase();
    if (lower.startsWith(AMZ_PREFIX) && !values.has(lower)) values.set(lower, value.trim());
  }
  const names = [...values.keys()].sort();
  return { block: names.map((name) => `${name}:${values.get(name)}\n`).join(''), names };
}

const BUCKET_ONLY = /^\/[^/]+$/;

/**
 * `/bucket/key` as sent (virtual-host requests get the Host's bucket in front), `?sub&res=v`.
 * A request for a bucket itself (`/bucket`) has two readings: S3 documents `/bucket/`, which
 * botocore signs, and some clients sign the path as sent. Both name the same resource.
 */
export function canonicalResources(
  rawPath: string,
  params: readonly RawQueryParam[],
  virtualHostBucket: string | undefined,
): string[] {
  const path = rawPath === '' ? '/' : rawPath;
  const resource = virtualHostBucket === undefined ? path : `/${virtualHostBucket}${path}`;
  const sub = subresources(params);
  const paths = BUCKET_ONLY.test(resource) ? [`${resource}/`, resource] : [resource];
  return paths.map((p) => p + sub);
}

function subresources(params: readonly RawQueryParam[]): string {
  const subs = params
    .filter((p) => SUBRESOURCES.has(p.name))
    .map((p) => ({ name: p.name, value: uriDecode(p.value, false).toString('utf8') }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  if (subs.length === 0) return '';
  return `?${subs.map((s) => (s.value === '' ? s.name : `${s.name}=${s.value}`)).join('&')}`;
}

export interface V2SignedParts {
  method: string;
  headers: RequestHeaders;
  /** The Date line: the Date header, '' when x-amz-date carries the time, Expires when presigned. */
  dateLine: string;
  amzHeaders: string;
  resource: string;
  /** Content-MD5 / Content-Type moved into a presigned URL's query, when not sent as headers. */
  fromQuery?: ReadonlyMap<string, string>;
}

export function stringToSignV2(p: V2SignedParts): string {
  const standard = (name: string): string =>
    (headerValue(p.headers, name) ?? p.fromQuery?.get(name) ?? '').trim();
  return `${p.method}\n${standard('content-md5')}\n${standard('content-type')}\n${p.dateLine}\n${p.amzHeaders}${p.resource}`;
}
