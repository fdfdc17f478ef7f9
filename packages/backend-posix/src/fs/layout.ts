// Where things are in the tree (docs/posix-layout.md): bucket dirs, object files, the .sgwtmp temp
// area and the multipart directories. Also the key checks that follow from "a key is a path".
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { S3Error } from '@vgwrdma/backend-contract';
import { confine } from './confine.js';

export const TMP_DIR = '.sgwtmp';
export const MULTIPART_DIR = 'multipart';
const MAX_KEY_BYTES = 1024;

export interface Layout {
  readonly root: string;
  /** --bucketlinks: bucket directories may be symlinks (confine() then keeps paths in the bucket). */
  readonly bucketLinks?: boolean;
}

/** `<bucket>` relative to the root (the MetaStore's path for bucket attributes). */
export function bucketRel(bucket: string): string {
  return bucket;
}

/** `<bucket>/<key>` relative to the root; a folder object's trailing slash is dropped. */
export function objectRel(bucket: string, key: string): string {
  return `${bucket}/${key.endsWith('/') ? key.slice(0, -1) : key}`;
}

export function tmpRel(bucket: string): string {
  return `${bucket}/${TMP_DIR}`;
}

export function sha256Hex(s: string): string {
  return createHash('sha256').update(s, 'utf8').digest('hex');
}

/** `<bucket>/.sgwtmp/multipart/<sha256(key)>`: one directory per key with open uploads. */
export function uploadsRel(bucket: string, key: string): string {
  return `${bucket}/${TMP_DIR}/${MULTIPART_DIR}/${sha256Hex(key)}`;
}

export function uploadRel(bucket: string, key: string, uploadId: string): string {
  return `${uploadsRel(bucket, key)}/${uploadId}`;
}

/** The absolute path of `rel`; AccessDenied when a symlink would take it outside the root. */
export function abs(layout: Layout, rel: string): string {
  return confine(layout.root, join(layout.root, rel), layout.bucketLinks === true);
}

export function isFolderKey(key: string): boolean {
  return key.endsWith('/');
}

/**
 * A bucket name only ever names one top-level directory. The gateway validates names against
 * the S3 rules; this guard keeps a bad name from escaping the root.
 */
export function assertBucketName(bucket: string): void {
  if (bucket === '' || bucket === '.' || bucket === '..' || bucket.includes('/') || bucket.includes('\0')) {
    throw new S3Error('NoSuchBucket', undefined, { detail: { BucketName: bucket } });
  }
}

/**
 * Keys map to paths, so some keys S3 accepts cannot be stored: empty segments (`a//b`), `.` and
 * `..` segments, and anything under the temp area.
 */
export function assertKey(key: string): void {
  if (Buffer.byteLength(key, 'utf8') > MAX_KEY_BYTES) throw new S3Error('KeyTooLongError');
  const segments = (isFolderKey(key) ? key.slice(0, -1) : key).split('/');
  const bad =
    key === '' ||
    key.includes('\0') ||
    segments[0] === TMP_DIR ||
    segments.some((s) => s === '' || s === '.' || s === '..');
  if (bad)
    throw S3Error.custom(
      'InvalidArgument',
      'Object key is not valid on this storage: it cannot map to a file path.',
    );
}
