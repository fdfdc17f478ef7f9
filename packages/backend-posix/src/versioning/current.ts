// The state of a key's latest version at its object path: absent, a folder or parent directory,
// an object, or a delete marker; and the bucket's versioning status as far as this gateway acts
// on it (none without a versioning directory).
import { lstat } from 'node:fs/promises';
import type { ObjectRetention, VersioningStatus } from '@vgwrdma/backend-contract';
import type { PosixEnv } from '../env.js';
import { isErrno } from '../fs/errors.js';
import { abs, objectRel } from '../fs/layout.js';
import type { LockState } from '../lock/object-lock.js';
import { ATTR } from '../meta/attr-names.js';
import { getJson, getText, type MetaStore } from '../meta/store.js';
import { NULL_VERSION } from './version-id.js';

type Current =
  | { kind: 'absent' }
  | { kind: 'directory' }
  | { kind: 'file'; versionId: string; isMarker: boolean; mtime: Date; lock: LockState };

/** The status the bucket's `versioning` attribute holds; undefined without a versioning dir. */
export async function activeVersioning(env: PosixEnv, bucket: string): Promise<VersioningStatus | undefined> {
  if (!env.versions) return undefined;
  const v = await env.meta.get(bucket, ATTR.versioning).catch(() => undefined);
  if (v === undefined || v.length === 0) return undefined;
  return v[0] === 1 || v.toString() === '1' ? 'Enabled' : 'Suspended';
}

/** The lock attributes of a file (object or archived version). */
export async function readLockState(meta: MetaStore, rel: string): Promise<LockState> {
  const retention = await getJson<ObjectRetention>(meta, rel, ATTR.retention);
  const hold = await meta.get(rel, ATTR.legalHold);
  return {
    retention,
    legalHold: hold !== undefined && hold.length > 0 && (hold[0] === 1 || hold.toString() === '1'),
  };
}

export async function isMarker(meta: MetaStore, rel: string): Promise<boolean> {
  return (await meta.get(rel, ATTR.deleteMarker)) !== undefined;
}

export async function readCurrent(env: PosixEnv, bucket: string, key: string): Promise<Current> {
  const rel = objectRel(bucket, key);
  let st: Awaited<ReturnType<typeof lstat>>;
  try {
    st = await lstat(abs(env, rel));
  } catch (err) {
    if (isErrno(err, 'ENOENT', 'ENOTDIR')) return { kind: 'absent' };
    throw err;
  }
  if (!st.isFile()) return { kind: 'directory' };
  return {
    kind: 'file',
    versionId: (await getText(env.meta, rel, ATTR.versionId)) || NULL_VERSION,
    isMarker: await isMarker(env.meta, rel),
    mtime: st.mtime,
    lock: await readLockState(env.meta, rel),
  };
}
