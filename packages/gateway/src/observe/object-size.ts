// The object size an access-log line reports (AWS's "Object Size"): the whole object's size for
// reads (a range answer's Content-Range total), the stored size for writes (the decoded length of
// an aws-chunked body), and the bytes a plugin moved outside the HTTP body (RDMA: the body is empty).
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';

const READS = new Set(['GetObject', 'HeadObject']);
const WRITES = new Set(['PutObject', 'UploadPart', 'PostObject']);

export function objectSizeOf(
  operation: string,
  request: IncomingHttpHeaders,
  response: ServerResponse,
  /** Payload bytes a plugin moved outside the HTTP body (PluginObservation.objectSize). */
  movedBytes: number | undefined,
): number | undefined {
  if (response.statusCode >= 300) return undefined;
  if (READS.has(operation)) {
    const range = response.getHeader('content-range');
    const total =
      typeof range === 'string' ? numberHeader(range.slice(range.lastIndexOf('/') + 1)) : undefined;
    if (total !== undefined) return total;
    if (movedBytes) return movedBytes;
    return numberHeader(response.getHeader('content-length'));
  }
  if (WRITES.has(operation)) {
    if (movedBytes) return movedBytes;
    return numberHeader(request['x-amz-decoded-content-length']) ?? numberHeader(request['content-length']);
  }
  return undefined;
}

/** A header's value as a non-negative integer, or undefined. */
export function numberHeader(v: number | string | readonly string[] | undefined): number | undefined {
  if (typeof v === 'number') return v;
  if (typeof v !== 'string' || v === '') return undefined;
  const n = Number(v);
  return Number.isSafeInteger(n) && n >= 0 ? n : undefined;
}
