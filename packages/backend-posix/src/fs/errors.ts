// Filesystem errors → S3 errors. ENOENT means NoSuchBucket or NoSuchKey depending on which part
// of the path is missing, so the bucket directory is checked before answering.
import { statSync } from 'node:fs';
import { S3Error, s3ErrorFromErrno } from '@vgwrdma/backend-contract';
import { abs, type Layout } from './layout.js';

function errnoOf(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException | undefined)?.code;
}

export function isErrno(err: unknown, ...codes: string[]): boolean {
  const code = errnoOf(err);
  return code !== undefined && codes.includes(code);
}

export function noSuchBucket(bucket: string): S3Error {
  return new S3Error('NoSuchBucket', undefined, { detail: { BucketName: bucket } });
}

export function noSuchKey(key: string): S3Error {
  return new S3Error('NoSuchKey', undefined, { detail: { Key: key } });
}

/**
 * Whether the bucket directory exists. The stat is synchronous on purpose: abs() has just
 * resolved the same path (confine.ts), so its dentry is cached and the call costs a few µs,
 * where an async stat costs a thread-pool round trip on every request.
 */
async function bucketExists(layout: Layout, bucket: string): Promise<boolean> {
  try {
    return statSync(abs(layout, bucket), { throwIfNoEntry: false })?.isDirectory() ?? false;
  } catch (err) {
    if (isErrno(err, 'ENOENT', 'ENOTDIR')) return false;
    throw err;
  }
}

/** Throws NoSuchBucket unless the bucket directory exists. */
export async function requireBucket(layout: Layout, bucket: string): Promise<void> {
  if (!(await bucketExists(layout, bucket))) throw noSuchBucket(bucket);
}

/** NoSuchBucket when the bucket is gone, else NoSuchKey. */
export async function missingObject(layout: Layout, bucket: string, key: string): Promise<S3Error> {
  return (await bucketExists(layout, bucket)) ? noSuchKey(key) : noSuchBucket(bucket);
}

/**
 * Maps an error from an operation on an object path. ENOENT/ENOTDIR (a path component missing
 * or a file) mean the key does not exist; quota, space and read-only errors have S3 codes;
 * anything else is passed on for the gateway to answer InternalError.
 */
export async function mapObjectError(
  err: unknown,
  layout: Layout,
  bucket: string,
  key: string,
): Promise<unknown> {
  if (err instanceof S3Error) return err;
  if (isErrno(err, 'ENOENT', 'ENOTDIR')) return missingObject(layout, bucket, key);
  if (isErrno(err, 'ENAMETOOLONG')) return new S3Error('KeyTooLongError');
  return s3ErrorFromErrno(err) ?? err;
}
