// Deleting objects. Deleting a missing key succeeds (S3 semantics). A folder object loses its
// attributes and its directory unless other objects still live below it. Parents left empty
// are pruned, stopping at folder objects.
import { lstat, rmdir, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import {
  type DeleteObjectInput,
  type DeleteObjectOutput,
  type DeleteObjectsInput,
  type DeleteObjectsOutput,
  normalizeETag,
  S3Error,
} from '@vgwrdma/s3-backend';
import type { PosixEnv } from '../env.js';
import { removeEmptyParents } from '../fs/dirs.js';
import { isErrno, mapObjectError, requireBucket } from '../fs/errors.js';
import { abs, assertBucketName, assertKey, isFolderKey, objectRel } from '../fs/layout.js';
import { ATTR } from '../meta/attr-names.js';
import { getText } from '../meta/store.js';

export async function deleteObject(env: PosixEnv, input: DeleteObjectInput): Promise<DeleteObjectOutput> {
  const { bucket, key } = input;
  assertBucketName(bucket);
  await requireBucket(env, bucket);
  try {
    assertKey(key);
  } catch (err) {
    if (err instanceof S3Error && err.code === 'KeyTooLongError') throw err;
    return {}; // a key that cannot be stored cannot exist
  }
  const rel = objectRel(bucket, key);
  const path = abs(env, rel);
  let isDir: boolean;
  try {
    isDir = (await lstat(path)).isDirectory();
  } catch (err) {
    if (isErrno(err, 'ENOENT', 'ENOTDIR')) return {};
    throw await mapObjectError(err, env, bucket, key);
  }
  // A plain key naming a directory, or a folder key naming a file: no such object.
  if (isDir !== isFolderKey(key)) return {};
  if (input.ifMatch !== undefined) {
    const etag = (await getText(env.meta, rel, ATTR.etag)) ?? '';
    if (input.ifMatch.trim() !== '*' && normalizeETag(input.ifMatch) !== normalizeETag(etag)) {
      throw new S3Error('PreconditionFailed');
    }
  }
  try {
    if (isDir) {
      if ((await getText(env.meta, rel, ATTR.etag)) === undefined) return {};
      for (const attr of await env.meta.list(rel)) await env.meta.remove(rel, attr);
      try {
        await rmdir(path);
        await env.meta.dropped(rel);
      } catch (err) {
        // Objects below it remain: the directory stays as their parent.
        if (!isErrno(err, 'ENOTEMPTY', 'EEXIST', 'ENOENT')) throw err;
      }
    } else {
      await unlink(path);
      await env.meta.dropped(rel);
    }
  } catch (err) {
    if (isErrno(err, 'ENOENT')) return {};
    throw await mapObjectError(err, env, bucket, key);
  }
  await removeEmptyParents(env, env.meta, dirname(rel));
  return {};
}

export async function deleteObjects(env: PosixEnv, input: DeleteObjectsInput): Promise<DeleteObjectsOutput> {
  assertBucketName(input.bucket);
  await requireBucket(env, input.bucket);
  const out: DeleteObjectsOutput = { deleted: [], errors: [] };
  for (const o of input.objects) {
    try {
      if (o.versionId !== undefined && o.versionId !== 'null') {
        throw new S3Error('NoSuchVersion', undefined, { detail: { Key: o.key, VersionId: o.versionId } });
      }
      const base = { bucket: input.bucket, key: o.key };
      await deleteObject(
        env,
        input.bypassGovernanceRetention === undefined
          ? base
          : { ...base, bypassGovernanceRetention: input.bypassGovernanceRetention },
      );
      out.deleted.push(o.versionId === undefined ? { key: o.key } : { key: o.key, versionId: o.versionId });
    } catch (err) {
      if (!(err instanceof S3Error)) throw err;
      const e = { key: o.key, code: err.code, message: err.message };
      out.errors.push(o.versionId === undefined ? e : { ...e, versionId: o.versionId });
    }
  }
  return out;
}
