// Signature Version 2 for requests the tests write by hand (S3's HMAC-SHA1 over the
// StringToSign: method, Content-MD5, Content-Type, Date or Expires, the x-amz-* headers, the
// resource): an Authorization header signed at a chosen time, or a presigned URL with a chosen
// Expires. The resource is the path as sent plus any sub-resources the caller signs.
import { createHmac } from 'node:crypto';
import type { Credentials } from '@vgwrdma/test-kit';

export interface V2Request {
  readonly method: string;
  /** The signed resource: the path as sent, with `?sub-resource` when one is signed. */
  readonly resource: string;
  readonly contentType?: string;
  /** x-amz-* headers, signed and sent. */
  readonly amzHeaders?: Readonly<Record<string, string>>;
}

function stringToSign(req: V2Request, dateLine: string): string {
  const amz = Object.entries(req.amzHeaders ?? {})
    .map(([name, value]) => [name.toLowerCase(), value.trim()] as const)
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([name, value]) => `${name}:${value}\n`)
    .join('');
  return `${req.method}\n\n${req.contentType ?? ''}\n${dateLine}\n${amz}${req.resource}`;
}

const sign = (secret: string, text: string) => createHmac('sha1', secret).update(text).digest('base64');

/** The headers of a SigV2 header-signed request made at `date` (Date, Authorization, the x-amz-* ones). */
export function signV2Headers(
  credentials: Credentials,
  req: V2Request,
  date = new Date(),
): Record<string, string> {
  const dateHeader = date.toUTCString();
  return {
    ...req.amzHeaders,
    ...(req.contentType === undefined ? {} : { 'content-type': req.contentType }),
    date: dateHeader,
    authorization: `AWS ${credentials.access}:${sign(credentials.secret, stringToSign(req, dateHeader))}`,
  };
}

/** `?AWSAccessKeyId=&Expires=&Signature=` for a URL valid until `expires`, to append to the request's query. */
export function presignV2Query(credentials: Credentials, req: V2Request, expires: Date): URLSearchParams {
  const seconds = String(Math.floor(expires.getTime() / 1000));
  return new URLSearchParams({
    AWSAccessKeyId: credentials.access,
    Expires: seconds,
    Signature: sign(credentials.secret, stringToSign(req, seconds)),
  });
}
