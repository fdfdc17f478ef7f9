// encoding-type=url for listing responses: keys, prefixes, delimiters and markers are
// percent-encoded (UTF-8) except unreserved characters and '/', as S3 writes them, so keys
// with characters XML cannot carry survive the round trip.
import { S3Error } from '@vgwrdma/backend-contract';

const KEEP = /[A-Za-z0-9\-_.~/]/;

export function s3UrlEncode(value: string): string {
  let out = '';
  for (const ch of value) {
    if (KEEP.test(ch)) out += ch;
    else for (const byte of Buffer.from(ch)) out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

export type Encoder = (value: string | undefined) => string | undefined;

/** The encoder an `encoding-type` parameter asks for (identity when absent). */
export function encoderFor(query: URLSearchParams): { encode: Encoder; encodingType: 'url' | undefined } {
  const t = query.get('encoding-type');
  if (t === null || t === '') return { encode: (v) => v, encodingType: undefined };
  if (t.toLowerCase() !== 'url') {
    throw new S3Error('InvalidArgument', undefined, {
      detail: { ArgumentName: 'encoding-type', ArgumentValue: t },
    });
  }
  return { encode: (v) => (v === undefined ? undefined : s3UrlEncode(v)), encodingType: 'url' };
}
