// What Node can put on the wire as a response header value: HTAB, visible ASCII, space and the
// Latin-1 range (one byte per character). Anything else (CR, LF, NUL, other control characters,
// characters above U+00FF) would make writeHead throw or, written raw, split the header.
import { S3Error } from '@vgwrdma/backend-contract';

const SENDABLE = /^[\t\x20-\x7e\x80-\xff]*$/;

export function isSendableHeaderValue(value: string): boolean {
  return SENDABLE.test(value);
}

/** InvalidArgument naming the query parameter whose value cannot become a response header. */
export function unsendableHeaderValue(param: string): S3Error {
  return S3Error.custom(
    'InvalidArgument',
    `The value of ${param} contains characters that cannot be sent in an HTTP header (control characters or characters outside ISO-8859-1)`,
    { detail: { ArgumentName: param } },
  );
}
