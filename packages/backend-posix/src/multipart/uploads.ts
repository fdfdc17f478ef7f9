// Multipart uploads on disk: `.sgwtmp/multipart/<sha256(key)>/<uploadId>/`, the hash directory
// carrying `objname` (the key), the upload directory carrying the attributes the object will
// get. Create, abort, and the lookups the other multipart operations share.
import { randomUUID } from 'node:crypto';
import { mkdir, rename, rm, rmdir, stat } from 'node:fs/promises';
import {
  type ChecksumAlgorithm,
  type ChecksumType,
  type CreateMultipartUploadInput,
  type CreateMultipartUploadOutput,
  defaultChecksumType,
  S3Error,
  type UploadRef,
} from '@vgwrdma/backend-contract';
import type { PosixEnv } from '../env.js';
import { backoff } from '../fs/dirs.js';
import { isErrno, noSuchBucket, requireBucket } from '../fs/errors.js';
import { abs, assertBucketName, assertKey, uploadRel, uploadsRel } from '../fs/layout.js';
import { lockForNewObject } from '../lock/object-lock.js';
import { ATTR } from '../meta/attr-names.js';
import {
  checkContentHeaders,
  checkMetadataSize,
  checkObjectTags,
  creationAttrs,
  type StoredChecksums,
} from '../meta/object-attrs.js';
import { getJson } from '../meta/store.js';

const UPLOAD_ID_RE = /^[A-Za-z0-9_-]{1,128}$/;
export const MIN_PART_SIZE = 5 * 1024 * 1024;
export const MAX_PART_NUMBER = 10_000;

export function noSuchUpload(uploadId: string): S3Error {
  return new S3Error('NoSuchUpload', undefined, { detail: { UploadId: uploadId } });
}

/** The upload's checksum settings, from the `checksums` attribute of its directory. */
interface UploadChecksum {
  algorithm?: ChecksumAlgorithm;
  type?: ChecksumType;
}

export async function readUploadChecksum(env: PosixEnv, rel: string): Promise<UploadChecksum> {
  const c = await getJson<StoredChecksums>(env.meta, rel, ATTR.checksums);
  const out: UploadChecksum = {};
  if (c?.Algorithm) out.algorithm = c.Algorithm;
  if (c?.Type) out.type = c.Type;
  return out;
}

/**
 * Resolves an upload to its directory, or NoSuchBucket / NoSuchUpload. A claimed upload
 * (being completed) is no longer visible here.
 */
export async function requireUpload(env: PosixEnv, ref: UploadRef): Promise<string> {
  assertBucketName(ref.bucket);
  await requireBucket(env, ref.bucket);
  if (!UPLOAD_ID_RE.test(ref.uploadId)) throw noSuchUpload(ref.uploadId);
  try {
    assertKey(ref.key);
  } catch {
    throw noSuchUpload(ref.uploadId);
  }
  const rel = uploadRel(ref.bucket, ref.key, ref.uploadId);
  try {
    if ((await stat(abs(env, rel))).isDirectory()) return rel;
  } catch (err) {
    if (!isErrno(err, 'ENOENT', 'ENOTDIR')) throw err;
  }
  throw noSuchUpload(ref.uploadId);
}

export function isValidUploadId(id: string): boolean {
  return UPLOAD_ID_RE.test(id);
}

export async function createMultipartUpload(
  env: PosixEnv,
  input: CreateMultipartUploadInput,
): Promise<CreateMultipartUploadOutput> {
  assertBucketName(input.bucket);
  assertKey(input.key);
  await requireBucket(env, input.bucket);
  checkMetadataSize(input.metadata);
  checkContentHeaders(input);
  checkObjectTags(input.tagging);
  if (input.checksumType && !input.checksumAlgorithm) {
    throw new S3Error(
      'InvalidRequest',
      'The x-amz-checksum-type header can only be used with the x-amz-checksum-algorithm header.',
    );
  }
  const uploadId = randomUUID();
  const hashRel = uploadsRel(input.bucket, input.key);
  const rel = `${hashRel}/${uploadId}`;
  // An abort of the last upload of this key may remove the hash directory between our mkdirs.
  for (let attempt = 0; ; attempt++) {
    try {
      await mkdir(abs(env, hashRel), { recursive: true, mode: env.dirPerms });
      await env.meta.set(hashRel, ATTR.objname, input.key);
      await mkdir(abs(env, rel), { mode: env.dirPerms });
      break;
    } catch (err) {
      if (!isErrno(err, 'ENOENT') || attempt > 5) throw err;
      await backoff(attempt);
    }
  }
  const attrs = creationAttrs({ ...input, ...(await lockForNewObject(env, input.bucket, input)) });
  const out: CreateMultipartUploadOutput = { bucket: input.bucket, key: input.key, uploadId };
  if (input.checksumAlgorithm) {
    const type = input.checksumType ?? defaultChecksumType(input.checksumAlgorithm);
    const stored: StoredChecksums = { Algorithm: input.checksumAlgorithm, Type: type };
    attrs.push([ATTR.checksums, JSON.stringify(stored)]);
    out.checksumAlgorithm = input.checksumAlgorithm;
    out.checksumType = type;
  }
  for (const [attr, value] of attrs) await env.meta.set(rel, attr, value);
  return out;
}

/** Removes the per-key hash directory once its last upload is gone (ENOTEMPTY: still in use). */
export async function pruneUploadsDir(env: PosixEnv, bucket: string, key: string): Promise<void> {
  const hashRel = uploadsRel(bucket, key);
  try {
    await rmdir(abs(env, hashRel));
    await env.meta.droppedTree(hashRel);
  } catch {
    // not empty or already gone
  }
}

export async function abortMultipartUpload(env: PosixEnv, ref: UploadRef): Promise<void> {
  const rel = await requireUpload(env, ref);
  // Rename first so a concurrent UploadPart or Complete sees NoSuchUpload, not a half-removed dir.
  const doomed = `${rel}.aborting`;
  try {
    await rename(abs(env, rel), abs(env, doomed));
  } catch (err) {
    if (isErrno(err, 'ENOENT')) throw noSuchUpload(ref.uploadId);
    throw err;
  }
  await env.meta.movedTree(rel, doomed);
  await rm(abs(env, doomed), { recursive: true, force: true });
  await env.meta.droppedTree(doomed);
  await pruneUploadsDir(env, ref.bucket, ref.key);
}

export { noSuchBucket };
