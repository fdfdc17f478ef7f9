// The request headers a POST form stands for: its `acl`, content and `x-amz-*` fields, named as
// the headers of an equivalent PutObject. The usual header parsers (metadata, content headers,
// lock, checksums) and the authorizer's ACL and condition checks then read them unchanged.
import type { RawHeaders } from '../http/headers.js';

/** Form fields that are object headers under another name. */
const RENAMED: Readonly<Record<string, string>> = { acl: 'x-amz-acl' };

/** Content headers a form may set on the object. */
const CONTENT = new Set([
  'content-type',
  'cache-control',
  'content-disposition',
  'content-encoding',
  'content-language',
  'expires',
]);

/** `x-amz-*` fields that sign the form rather than describe the object. */
const SIGNING = new Set([
  'x-amz-algorithm',
  'x-amz-credential',
  'x-amz-date',
  'x-amz-signature',
  'x-amz-security-token',
]);

export function formHeaders(fields: ReadonlyMap<string, string>): RawHeaders {
  const out: RawHeaders = {};
  for (const [name, value] of fields) {
    const renamed = Object.hasOwn(RENAMED, name) ? RENAMED[name] : undefined;
    if (renamed) out[renamed] = value;
    else if (CONTENT.has(name) || (name.startsWith('x-amz-') && !SIGNING.has(name))) out[name] = value;
  }
  return out;
}
