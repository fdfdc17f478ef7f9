// Answers normalised across upstream S3 implementations, so the proxy answers as AWS does whatever
// store sits behind it. Each rule is here because a real upstream (Ceph RGW 16.2, found by the
// conformance kit run against it) answers differently; every rule is also right against AWS.
//   - ETags are quoted: RGW answers CopyObject's and UploadPartCopy's result ETag unquoted.
//   - A write's If-Match / If-None-Match ETag goes unquoted: RGW compares a PUT's If-Match
//     against the bare ETag, so a quoted (correct) value never matches.
//   - A read's If-Match with `*` or a list is evaluated here (RGW refuses both with 412) and the
//     upstream is sent the one ETag that matched, so it still refuses a change in between.
//   - Complete with parts out of ascending order is InvalidPartOrder (RGW completes it).
//   - A multipart object's parts count, when HEAD/GET answer none (RGW 16.2 never sends
//     x-amz-mp-parts-count), is the `-N` suffix of its ETag (S3's multipart ETag form).
//   - Keys over 1024 bytes are KeyTooLongError and user metadata over 2 KiB is MetadataTooLarge
//     (RGW answers InvalidObjectName, and takes any size of metadata).
import { type Conditions, checkConditions, S3Error } from '@vgwrdma/backend-contract';

const MAX_KEY_BYTES = 1024;
const MAX_METADATA_BYTES = 2048;

/** `abc` → `"abc"`; quoted and empty values unchanged. */
export function quotedETag(etag: string | undefined): string {
  if (etag === undefined || etag === '' || etag.startsWith('"') || etag.startsWith('W/')) return etag ?? '';
  return `"${etag}"`;
}

/** A write condition's ETag list with each item's quotes removed (`*` unchanged). */
export function writeConditionETag(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  return value
    .split(',')
    .map((v) => v.trim().replace(/^"(.*)"$/, '$1'))
    .join(', ');
}

/** True when a read's If-Match needs evaluating here: a `*` or a list of ETags. */
export function needsLocalIfMatch(ifMatch: string | undefined): ifMatch is string {
  return ifMatch !== undefined && (ifMatch.includes(',') || ifMatch.trim() === '*');
}

/**
 * The conditions to send upstream for a read whose If-Match the upstream cannot take: `current`
 * is the object as a plain HEAD found it. Throws PreconditionFailed when no ETag of the list matches.
 */
export function localIfMatch(
  ifMatch: string,
  conditions: Conditions,
  current: { etag: string; lastModified: Date },
): Conditions {
  checkConditions({ ifMatch }, current);
  return { ...conditions, ifMatch: current.etag };
}

/** InvalidPartOrder unless the part numbers ascend strictly. */
export function checkPartOrder(parts: readonly { partNumber: number }[]): void {
  for (let i = 1; i < parts.length; i++) {
    const prev = parts[i - 1]?.partNumber ?? 0;
    if ((parts[i]?.partNumber ?? 0) <= prev) throw new S3Error('InvalidPartOrder');
  }
}

/** KeyTooLongError / MetadataTooLarge before a write reaches the upstream. */
export function checkWriteLimits(key: string, metadata: Readonly<Record<string, string>> | undefined): void {
  if (Buffer.byteLength(key, 'utf8') > MAX_KEY_BYTES) throw new S3Error('KeyTooLongError');
  let bytes = 0;
  for (const [k, v] of Object.entries(metadata ?? {})) bytes += Buffer.byteLength(k) + Buffer.byteLength(v);
  if (bytes > MAX_METADATA_BYTES) throw new S3Error('MetadataTooLarge');
}

/** The upstream's parts count, else the N of a multipart ETag `"<md5>-N"`. */
export function partsCountOf(partsCount: number | undefined, etag: string | undefined): number | undefined {
  if (partsCount !== undefined) return partsCount;
  const m = /^"?[0-9a-f]{32}-(\d+)"?$/.exec(etag ?? '');
  return m ? Number(m[1]) : undefined;
}
