// The S3 error document cu-middleware answers with when it refuses a request on its own (no
// x-amz-rdma-reply: the RDMA leg never started). Same shape as the gateway's error bodies.

import { escapeXml, type S3Error } from '@vgwrdma/backend-contract';

/** An S3 error response: status from the error, XML body, x-amz-request-id when known. */
export function s3ErrorResponse(
  error: S3Error,
  resource: string,
  requestId: string | undefined,
  method: string,
): Response {
  const headers: Record<string, string> = { 'content-type': 'application/xml', ...error.headers };
  if (requestId) headers['x-amz-request-id'] = requestId;
  if (method === 'HEAD') return new Response(null, { status: error.status, headers });
  const body =
    '<?xml version="1.0" encoding="UTF-8"?>\n<Error>' +
    `<Code>${escapeXml(error.code)}</Code>` +
    `<Message>${escapeXml(error.message)}</Message>` +
    `<Resource>${escapeXml(resource)}</Resource>` +
    `<RequestId>${escapeXml(requestId ?? '')}</RequestId>` +
    '</Error>';
  return new Response(body, { status: error.status, headers });
}
