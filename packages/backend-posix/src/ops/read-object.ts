// Reading one object: HEAD and GET, with conditions, ranges and ?partNumber=. The object file is
// opened first and its attributes are read through that fd, so data, size and ETag all belong
// to the same inode even while a PUT replaces the key.
import { Readable } from 'node:stream';
import {
  checkConditions,
  type GetObjectInput,
  type GetObjectOutput,
  type HeadObjectInput,
  type HeadObjectOutput,
  pickContentHeaders,
  type ResolvedRange,
  resolveRange,
  S3Error,
} from '@vgwrdma/backend-contract';
import type { PosixEnv } from '../env.js';
import { isErrno } from '../fs/errors.js';
import { fileBody, WHOLE_MAX, wholeFileBody } from '../fs/file-body.js';
import { type OpenedObject, openLatest } from '../fs/open-object.js';
import { primaryChecksums } from '../meta/object-attrs.js';
import { markerAsMissing, openVersion, withVersionId } from '../versioning/open-version.js';

/**
 * Opens an object: its latest version, or the version `versionId` names. A latest version that
 * is a delete marker answers NoSuchKey (with `x-amz-delete-marker: true`).
 */
export async function openObject(
  env: PosixEnv,
  bucket: string,
  key: string,
  versionId?: string,
): Promise<OpenedObject> {
  if (versionId !== undefined) return openVersion(env, bucket, key, versionId);
  const o = await openLatest(env, bucket, key);
  if (o.attrs.deleteMarker) {
    await o.fh?.close();
    throw markerAsMissing(key, o.attrs.versionId);
  }
  return withVersionId(env, bucket, o);
}

/** The current ETag of `key`, or undefined when there is no such object (for conditional writes). */
export async function readExisting(
  env: PosixEnv,
  bucket: string,
  key: string,
): Promise<{ etag: string } | undefined> {
  try {
    const o = await openObject(env, bucket, key);
    await o.fh?.close();
    return { etag: o.attrs.etag ?? '' };
  } catch (err) {
    if (err instanceof S3Error && err.code === 'NoSuchKey') return undefined;
    if (isErrno(err, 'ENOENT')) return undefined;
    throw err;
  }
}

/** The metadata HEAD answers, from an opened object. */
function describe(key: string, o: OpenedObject, checksumMode: boolean): HeadObjectOutput {
  const a = o.attrs;
  const out: HeadObjectOutput = {
    key,
    etag: a.etag ?? '',
    size: o.size,
    lastModified: o.mtime,
    metadata: a.metadata,
    storageClass: 'STANDARD',
  };
  Object.assign(out, pickContentHeaders(a));
  if (checksumMode) {
    const { checksums, type } = primaryChecksums(a.checksums);
    out.checksums = checksums;
    if (type) out.checksumType = type;
  }
  if (a.tagging) out.tagCount = Object.keys(a.tagging).length;
  if (a.retention) out.retention = a.retention;
  if (a.legalHold !== undefined) out.legalHold = a.legalHold;
  if (a.mp) out.partsCount = a.mp.parts.length;
  if (o.versionId !== undefined) out.versionId = o.versionId;
  return out;
}

/** The byte range a GET returns for a Range header or a part number; undefined = everything. */
function selectRange(input: HeadObjectInput, o: OpenedObject): ResolvedRange | undefined {
  if (input.partNumber !== undefined) {
    if (input.range)
      throw new S3Error('InvalidRequest', 'Cannot specify both Range header and partNumber query parameter');
    const ends = o.attrs.mp?.parts ?? [o.size];
    const n = input.partNumber;
    if (!Number.isInteger(n) || n < 1 || n > ends.length) throw new S3Error('InvalidPartNumber');
    if (o.size === 0) return undefined; // no bytes: no Content-Range to send
    const start = n === 1 ? 0 : (ends[n - 2] as number);
    const end = (ends[n - 1] as number) - 1;
    return { start, end, size: o.size };
  }
  return input.range ? resolveRange(input.range, o.size) : undefined;
}

async function openChecked(
  env: PosixEnv,
  input: HeadObjectInput,
): Promise<{ o: OpenedObject; out: HeadObjectOutput }> {
  const o = await openObject(env, input.bucket, input.key, input.versionId);
  try {
    const out = describe(input.key, o, input.checksumMode === true);
    checkConditions(input.conditions, { etag: out.etag, lastModified: o.mtime });
    const range = selectRange(input, o);
    if (range) out.range = range;
    return { o, out };
  } catch (err) {
    await o.fh?.close();
    throw err;
  }
}

export async function headObject(env: PosixEnv, input: HeadObjectInput): Promise<HeadObjectOutput> {
  const { o, out } = await openChecked(env, input);
  await o.fh?.close();
  return out;
}

export async function getObject(env: PosixEnv, input: GetObjectInput): Promise<GetObjectOutput> {
  const { o, out } = await openChecked(env, input);
  const r = out.range;
  if (!o.fh || o.size === 0 || (r && r.end < r.start)) {
    await o.fh?.close();
    return { ...out, body: Readable.from([]) };
  }
  // The body owns the handle from here: it closes it at the end or when destroyed.
  const start = r ? r.start : 0;
  const end = r ? r.end : o.size - 1;
  const body = end - start < WHOLE_MAX ? await wholeFileBody(o.fh, start, end) : fileBody(o.fh, start, end);
  return { ...out, body };
}
