// How a successful POST upload answers, as the form asked: `success_action_redirect` (or the
// older `redirect`) → 303 to that URL with bucket, key and ETag in its query;
// `success_action_status` 200 → empty 200, 201 → 201 with a PostResponse document; anything
// else → 204. The object's URL goes out as Location in every case.
import { emptyResponse, type HeaderMap, xmlResponse } from '../handlers/respond.js';
import { el, group, XML_DECLARATION } from '../xml/document.js';

interface Uploaded {
  readonly bucket: string;
  readonly key: string;
  /** Quoted, as in the ETag header. */
  readonly etag: string;
  /** The object's URL (Location). */
  readonly location: string;
  /** ETag, version id, checksums. */
  readonly headers: HeaderMap;
}

export function postResponse(fields: ReadonlyMap<string, string>, up: Uploaded): Response {
  const headers: HeaderMap = { ...up.headers, location: up.location };
  const redirect = redirectUrl(fields.get('success_action_redirect') ?? fields.get('redirect'), up);
  if (redirect) return emptyResponse(303, { ...headers, location: redirect });
  const status = fields.get('success_action_status');
  if (status === '200') return emptyResponse(200, headers);
  if (status === '201') {
    const body = group(
      'PostResponse',
      el('Location', up.location) + el('Bucket', up.bucket) + el('Key', up.key) + el('ETag', up.etag),
    );
    return xmlResponse(XML_DECLARATION + body, 201, headers);
  }
  return emptyResponse(204, headers);
}

/** The redirect target with `bucket`, `key` and `etag` appended; undefined when not an absolute URL. */
function redirectUrl(raw: string | undefined, up: Uploaded): string | undefined {
  if (raw === undefined || raw === '') return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  const query = [
    `bucket=${encodeURIComponent(up.bucket)}`,
    `key=${encodeURIComponent(up.key)}`,
    `etag=${encodeURIComponent(up.etag)}`,
  ].join('&');
  return `${raw}${raw.includes('?') ? '&' : '?'}${query}`;
}
