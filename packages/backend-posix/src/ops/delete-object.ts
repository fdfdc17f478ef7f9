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
} from '@vgwrdma/backend-contract';
import type { PosixEnv } from '../env.js';
import { removeEmptyParents } from '../fs/dirs.js';
import { isErrno, mapObjectError, requireBucket } from '../fs/errors.js';
import { abs, assertBucketName, assertKey, isFolderKey, objectRel } from '../fs/layout.js';
import { assertUnlocked, readBucketLock } from '../lock/object-lock.js';
import { ATTR } from '../meta/attr-names.js';
import { getText } from '../meta/store.js';
import { activeVersioning, readLockState } from '../versioning/current.js';
import { deleteVersioned } from '../versioning/delete-version.js';
import { NULL_VERSION } from '../versioning/version-id.js';

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
  const status = await activeVersioning(env, bucket);
  if (status && env.versions && !isFolderKey(key)) return deleteVersioned(env, env.versions, status, input);
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
  if (!isDir) {
    // Unversioned: only the null version exists, and only it can be deleted (if not locked).
    const versionId = (await getText(env.meta, rel, ATTR.versionId)) || NULL_VERSION;
    if (input.versionId !== undefined && input.versionId !== versionId) return {};
    if ((await readBucketLock(env, bucket))?.Enabled)
      assertUnlocked(await readLockState(env.meta, rel), input.bypassGovernanceRetention === true);
  }
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
      const r = await deleteObject(env, {
        bucket: input.bucket,
        key: o.key,
        ...(o.versionId === undefined ? {} : { versionId: o.versionId }),
        ...(input.bypassGovernanceRetention === undefined
          ? {}
          : { bypassGovernanceRetention: input.bypassGovernanceRetention }),
      });
      const d: DeleteObjectsOutput['deleted'][number] = { key: o.key };
      if (o.versionId !== undefined) d.versionId = o.versionId;
      if (r.deleteMarker) {
        d.deleteMarker = true;
        if (o.versionId === undefined && r.versionId !== undefined) d.deleteMarkerVersionId = r.versionId;
      }
      out.deleted.push(d);
    } catch (err) {
      if (!(err instanceof S3Error)) throw err;
      const e = { key: o.key, code: err.code, message: err.message };
      out.errors.push(o.versionId === undefined ? e : { ...e, versionId: o.versionId });
    }
  }
  return out;
}
