// AWS's server access log format: space-separated fields in AWS's order, '-' for what is unknown
// or does not apply, quoted Request-URI / Referer / User-Agent, every field escaped so that no
// client-sent byte ends a field or a line (see QUOTED_UNSAFE). The URI and Referer arrive with
// their signature values already REDACTED (the gateway's observation does that). The gateway has
// no canonical user ids, so Bucket Owner is '-' and Requester is the signing access key. AWS
// appends new fields at the end and tells parsers to ignore what they do not know; three vgwrdma
// fields follow AWS's last one: via (http | rdma), RDMA bytes moved, RDMA decline reason.
import type { RdmaObservation } from '@vgwrdma/cu-backend';
import type { RequestObservation } from '@vgwrdma/gateway';

/** AWS's operation names (REST.<method>.<resource>) for the S3 operations that have a fixed one. */
// biome-ignore format: a table reads best one row per line
const AWS_OPERATIONS: Readonly<Record<string, string>> = {
  ListBuckets: 'REST.GET.SERVICE',
  CreateBucket: 'REST.PUT.BUCKET',
  HeadBucket: 'REST.HEAD.BUCKET',
  DeleteBucket: 'REST.DELETE.BUCKET',
  ListObjects: 'REST.GET.BUCKET',
  ListObjectsV2: 'REST.GET.BUCKET',
  ListObjectVersions: 'REST.GET.BUCKETVERSIONS',
  ListMultipartUploads: 'REST.GET.UPLOADS',
  GetBucketLocation: 'REST.GET.LOCATION',
  DeleteObjects: 'REST.POST.MULTI_OBJECT_DELETE',
  PostObject: 'REST.POST.OBJECT',
  GetBucketVersioning: 'REST.GET.VERSIONING',
  PutBucketVersioning: 'REST.PUT.VERSIONING',
  GetBucketPolicy: 'REST.GET.BUCKETPOLICY',
  PutBucketPolicy: 'REST.PUT.BUCKETPOLICY',
  DeleteBucketPolicy: 'REST.DELETE.BUCKETPOLICY',
  GetBucketAcl: 'REST.GET.ACL',
  PutBucketAcl: 'REST.PUT.ACL',
  GetBucketCors: 'REST.GET.CORS',
  PutBucketCors: 'REST.PUT.CORS',
  DeleteBucketCors: 'REST.DELETE.CORS',
  GetBucketTagging: 'REST.GET.TAGGING',
  PutBucketTagging: 'REST.PUT.TAGGING',
  DeleteBucketTagging: 'REST.DELETE.TAGGING',
  GetObject: 'REST.GET.OBJECT',
  HeadObject: 'REST.HEAD.OBJECT',
  PutObject: 'REST.PUT.OBJECT',
  CopyObject: 'REST.COPY.OBJECT',
  DeleteObject: 'REST.DELETE.OBJECT',
  CreateMultipartUpload: 'REST.POST.UPLOADS',
  UploadPart: 'REST.PUT.PART',
  UploadPartCopy: 'REST.COPY.PART',
  CompleteMultipartUpload: 'REST.POST.UPLOAD',
  AbortMultipartUpload: 'REST.DELETE.UPLOAD',
  ListParts: 'REST.GET.UPLOAD',
  GetObjectAcl: 'REST.GET.ACL',
  PutObjectAcl: 'REST.PUT.ACL',
  GetObjectTagging: 'REST.GET.OBJECT_TAGGING',
  PutObjectTagging: 'REST.PUT.OBJECT_TAGGING',
  DeleteObjectTagging: 'REST.DELETE.OBJECT_TAGGING',
};

/** REST.<METHOD>.<OPERATION> for the operations without an entry (UNKNOWN before routing). */
export function awsOperation(o: Pick<RequestObservation, 'operation' | 'method'>): string {
  return (
    AWS_OPERATIONS[o.operation] ?? `REST.${o.method}.${o.operation.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`
  );
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const two = (n: number): string => String(n).padStart(2, '0');

/** `[06/Feb/2019:00:00:38 +0000]`, in UTC. */
export function awsTime(epochMs: number): string {
  const d = new Date(epochMs);
  const date = `${two(d.getUTCDate())}/${MONTHS[d.getUTCMonth()]}/${d.getUTCFullYear()}`;
  return `[${date}:${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())} +0000]`;
}

/**
 * Bytes a field may hold as they are: printable ASCII except the quote and the backslash (a parser
 * that honours `\"` would end a quoted field early at a trailing backslash); an unquoted field also
 * loses the space (it separates fields) and the brackets (they delimit the time field). Anything
 * else, control characters and Unicode line separators included, is written as %XX of its UTF-8
 * bytes, so a record is one line with AWS's field count whatever a client sends.
 */
const QUOTED_UNSAFE = /[^\x20-\x7e]|["\\]/gu;
const UNQUOTED_UNSAFE = /[^\x21-\x7e]|["\\[\]]/gu;
const percent = (ch: string): string =>
  [...Buffer.from(ch, 'utf8')].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');

/** An unquoted field: '-' when unknown or empty, unsafe characters percent-encoded. */
export const unquoted = (v: string | number | undefined): string =>
  v === undefined || v === '' ? '-' : String(v).replace(UNQUOTED_UNSAFE, percent);
/** A quoted field: '"-"' when unknown, unsafe characters (the quote among them) percent-encoded. */
export const quoted = (v: string | undefined): string =>
  v === undefined ? '"-"' : `"${v.replace(QUOTED_UNSAFE, percent)}"`;

export function s3AccessLine(o: RequestObservation, rdma: RdmaObservation | undefined): string {
  return [
    '-', // Bucket Owner
    unquoted(o.bucket),
    awsTime(o.startedAt),
    unquoted(o.remoteAddress),
    unquoted(o.accessKey), // Requester
    unquoted(o.requestId),
    unquoted(awsOperation(o)),
    o.key === '' ? '-' : unquoted(encodeURIComponent(o.key).replace(/%2F/g, '/')),
    quoted(`${o.method} ${o.url} HTTP/1.1`),
    String(o.status),
    // A request cut at the shutdown deadline has no S3 error code: the column says why instead.
    unquoted(o.errorCode ?? (o.cut === 'shutdown' ? 'shutdown' : undefined)),
    o.bytesSent > 0 ? String(o.bytesSent) : '-',
    unquoted(o.objectSize),
    String(Math.round(o.totalMs)),
    o.firstByteMs === undefined ? '-' : String(Math.round(o.firstByteMs)),
    quoted(o.referer),
    quoted(o.userAgent),
    '-', // Version Id
    Buffer.from(o.requestId, 'latin1').toString('base64'), // Host Id (our x-amz-id-2)
    unquoted(o.signatureVersion),
    unquoted(o.tlsCipher),
    unquoted(o.authType),
    unquoted(o.host),
    unquoted(o.tlsVersion),
    '-', // Access Point ARN
    '-', // aclRequired
    rdma?.via ?? 'http',
    rdma ? String(rdma.bytes) : '-',
    unquoted(rdma?.declineReason),
  ].join(' ');
}
