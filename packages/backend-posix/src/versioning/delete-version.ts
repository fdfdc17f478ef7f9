// DeleteObject on a bucket with versioning (Enabled or Suspended). Without a version id a delete
// marker becomes the latest version: a new ULID one when Enabled (the old latest is archived),
// the `null` one when Suspended (a null latest is replaced, a versioned one archived). With a
// version id that version is removed for good, subject to object lock; removing the latest
// promotes the newest archived version. Deleting a version that does not exist succeeds, as S3's.
import { unlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import {
  type DeleteObjectInput,
  type DeleteObjectOutput,
  S3Error,
  type VersioningStatus,
} from '@vgwrdma/backend-contract';
import type { PosixEnv } from '../env.js';
import { removeEmptyParents } from '../fs/dirs.js';
import { isErrno } from '../fs/errors.js';
import { abs, objectRel } from '../fs/layout.js';
import { TempFile } from '../fs/temp-file.js';
import { assertUnlocked } from '../lock/object-lock.js';
import { ATTR } from '../meta/attr-names.js';
import { archiveCurrent, promoteNewest, removeArchived } from './archive.js';
import { isMarker, readCurrent, readLockState } from './current.js';
import { withKeyLock } from './key-lock.js';
import { assertVersionId, NULL_VERSION, newVersionId } from './version-id.js';
import { type VersionStore, versionRel } from './version-store.js';

/** Publishes an empty file carrying `delete-marker` (and `version-id` unless null) at the key. */
async function publishMarker(env: PosixEnv, bucket: string, key: string, versionId: string): Promise<void> {
  const tmp = await TempFile.create(env, env.meta, bucket, env.dirPerms, env.filePerms);
  try {
    await tmp.setAttr(ATTR.deleteMarker, '');
    if (versionId !== NULL_VERSION) await tmp.setAttr(ATTR.versionId, versionId);
    await tmp.publish(objectRel(bucket, key), env.dirPerms);
  } catch (err) {
    await tmp.discard();
    throw err;
  }
}

async function addMarker(
  env: PosixEnv,
  store: VersionStore,
  status: VersioningStatus,
  input: DeleteObjectInput,
): Promise<DeleteObjectOutput> {
  const { bucket, key } = input;
  const bypass = input.bypassGovernanceRetention === true;
  const cur = await readCurrent(env, bucket, key);
  if (cur.kind === 'directory') return {}; // a plain key naming a directory: no such object
  let id: string;
  if (status === 'Enabled') {
    if (cur.kind === 'file') await archiveCurrent(env, store, bucket, key, cur.versionId);
    id = newVersionId();
  } else {
    if (cur.kind === 'file' && cur.versionId !== NULL_VERSION) {
      await archiveCurrent(env, store, bucket, key, cur.versionId);
    } else if (cur.kind === 'file' && !cur.isMarker) {
      assertUnlocked(cur.lock, bypass);
    }
    assertUnlocked(
      await readLockState(store.meta, versionRel(bucket, key, NULL_VERSION)).catch(() => ({})),
      bypass,
    );
    await removeArchived(store, bucket, key, NULL_VERSION);
    id = NULL_VERSION;
  }
  try {
    await publishMarker(env, bucket, key, id);
  } catch (err) {
    // A key that cannot exist (its parent is an object): nothing to hide.
    if (err instanceof S3Error && err.code === 'ObjectParentIsFile') return {};
    throw err;
  }
  return { deleteMarker: true, versionId: id };
}

async function removeVersion(
  env: PosixEnv,
  store: VersionStore,
  input: DeleteObjectInput,
): Promise<DeleteObjectOutput> {
  const { bucket, key } = input;
  const versionId = input.versionId as string;
  assertVersionId(versionId);
  const bypass = input.bypassGovernanceRetention === true;
  const cur = await readCurrent(env, bucket, key);
  if (cur.kind === 'file' && cur.versionId === versionId) {
    if (!cur.isMarker) assertUnlocked(cur.lock, bypass);
    const rel = objectRel(bucket, key);
    try {
      await unlink(abs(env, rel));
      await env.meta.dropped(rel);
    } catch (err) {
      if (!isErrno(err, 'ENOENT')) throw err;
    }
    if (!(await promoteNewest(env, store, bucket, key)))
      await removeEmptyParents(env, env.meta, dirname(rel));
    return cur.isMarker ? { versionId, deleteMarker: true } : { versionId };
  }
  const vrel = versionRel(bucket, key, versionId);
  let marker: boolean;
  try {
    marker = await isMarker(store.meta, vrel);
    if (!marker) assertUnlocked(await readLockState(store.meta, vrel), bypass);
  } catch (err) {
    if (isErrno(err, 'ENOENT', 'ENOTDIR')) return { versionId };
    throw err;
  }
  // Sidecar stores answer "no attribute" for a missing file: check the file itself.
  if (!(await removeArchived(store, bucket, key, versionId))) return { versionId };
  return marker ? { versionId, deleteMarker: true } : { versionId };
}

export function deleteVersioned(
  env: PosixEnv,
  store: VersionStore,
  status: VersioningStatus,
  input: DeleteObjectInput,
): Promise<DeleteObjectOutput> {
  return withKeyLock(input.bucket, input.key, () =>
    input.versionId === undefined ? addMarker(env, store, status, input) : removeVersion(env, store, input),
  );
}
