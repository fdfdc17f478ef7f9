// Moving versions between the object path and the versioning directory. Archiving hard-links
// the current file into the versioning dir (same inode, so data, mtime and xattrs come along
// and the object stays readable until its replacement is renamed over it); across filesystems
// it copies data, mtime and attributes instead. Promotion renames (or copies) the newest
// archived version back onto the object path after the latest was deleted.
import { copyFile, link, mkdir, readdir, rename, rmdir, stat, unlink, utimes } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { PosixEnv } from '../env.js';
import { makeParents } from '../fs/dirs.js';
import { isErrno } from '../fs/errors.js';
import { abs, objectRel } from '../fs/layout.js';
import type { MetaStore } from '../meta/store.js';
import { NULL_VERSION } from './version-id.js';
import { type VersionStore, versionAbs, versionRel, versionsDirRel } from './version-store.js';

async function copyAttrs(from: MetaStore, fromRel: string, to: MetaStore, toRel: string): Promise<void> {
  for (const attr of await from.list(fromRel)) {
    const v = await from.get(fromRel, attr);
    if (v !== undefined) await to.set(toRel, attr, v);
  }
}

/** Copies a file with its mtime and attributes (the cross-filesystem path). */
async function copyVersionFile(
  fromPath: string,
  fromMeta: MetaStore,
  fromRel: string,
  toPath: string,
  toMeta: MetaStore,
  toRel: string,
): Promise<void> {
  await copyFile(fromPath, toPath);
  const st = await stat(fromPath);
  await utimes(toPath, st.atime, st.mtime);
  await copyAttrs(fromMeta, fromRel, toMeta, toRel);
}

/** Archives the file at the object path as `versionId`; an existing archive of that id is replaced. */
export async function archiveCurrent(
  env: PosixEnv,
  store: VersionStore,
  bucket: string,
  key: string,
  versionId: string,
): Promise<void> {
  const rel = objectRel(bucket, key);
  const vrel = versionRel(bucket, key, versionId);
  const target = versionAbs(store, vrel);
  await mkdir(dirname(target), { recursive: true, mode: env.dirPerms });
  await unlink(target).catch(() => undefined);
  await store.meta.dropped(vrel).catch(() => undefined);
  try {
    await link(abs(env, rel), target);
    if (env.meta.kind !== 'xattr') await copyAttrs(env.meta, rel, store.meta, vrel);
  } catch (err) {
    if (!isErrno(err, 'EXDEV', 'EPERM', 'EMLINK')) throw err;
    await copyVersionFile(abs(env, rel), env.meta, rel, target, store.meta, vrel);
  }
}

/** Removes one archived version and the hash directories it leaves empty. */
export async function removeArchived(
  store: VersionStore,
  bucket: string,
  key: string,
  versionId: string,
): Promise<boolean> {
  const vrel = versionRel(bucket, key, versionId);
  try {
    await unlink(versionAbs(store, vrel));
  } catch (err) {
    if (isErrno(err, 'ENOENT', 'ENOTDIR')) return false;
    throw err;
  }
  await store.meta.dropped(vrel).catch(() => undefined);
  await pruneVersionDirs(store, bucket, key);
  return true;
}

async function pruneVersionDirs(store: VersionStore, bucket: string, key: string): Promise<void> {
  let cur = versionsDirRel(bucket, key);
  while (cur.includes('/')) {
    try {
      await rmdir(versionAbs(store, cur));
    } catch {
      return;
    }
    cur = dirname(cur);
  }
}

interface ArchivedVersion {
  versionId: string;
  mtime: Date;
  size: number;
}

/** A key's archived versions, newest first (mtime, then id: ULIDs grow, `null` is oldest on ties). */
export async function listArchived(
  store: VersionStore,
  bucket: string,
  key: string,
): Promise<ArchivedVersion[]> {
  const dir = versionsDirRel(bucket, key);
  let names: string[];
  try {
    names = await readdir(versionAbs(store, dir));
  } catch (err) {
    if (isErrno(err, 'ENOENT', 'ENOTDIR')) return [];
    throw err;
  }
  const out: ArchivedVersion[] = [];
  for (const name of names) {
    if (name.startsWith('.')) continue;
    try {
      const st = await stat(versionAbs(store, `${dir}/${name}`));
      if (st.isFile()) out.push({ versionId: name, mtime: st.mtime, size: st.size });
    } catch {
      // removed while listing
    }
  }
  return out.sort((a, b) => {
    const dt = b.mtime.getTime() - a.mtime.getTime();
    if (dt !== 0) return dt;
    if (a.versionId === NULL_VERSION) return 1;
    if (b.versionId === NULL_VERSION) return -1;
    return a.versionId < b.versionId ? 1 : a.versionId > b.versionId ? -1 : 0;
  });
}

/**
 * After the latest version was removed: moves the newest archived version onto the object
 * path. Returns false when the key has no archived versions left.
 */
export async function promoteNewest(
  env: PosixEnv,
  store: VersionStore,
  bucket: string,
  key: string,
): Promise<boolean> {
  const [newest] = await listArchived(store, bucket, key);
  if (!newest) return false;
  const vrel = versionRel(bucket, key, newest.versionId);
  const rel = objectRel(bucket, key);
  await makeParents(env, rel, env.dirPerms);
  try {
    await rename(versionAbs(store, vrel), abs(env, rel));
    if (env.meta.kind !== 'xattr') {
      await copyAttrs(store.meta, vrel, env.meta, rel);
      await store.meta.dropped(vrel);
    }
  } catch (err) {
    if (!isErrno(err, 'EXDEV')) throw err;
    await copyVersionFile(versionAbs(store, vrel), store.meta, vrel, abs(env, rel), env.meta, rel);
    await unlink(versionAbs(store, vrel));
    await store.meta.dropped(vrel).catch(() => undefined);
  }
  await pruneVersionDirs(store, bucket, key);
  return true;
}
