// Opening what is stored at an object path: the regular file (attributes read through its fd,
// so data and attributes belong to the same inode while a PUT replaces the key) or the folder
// object's directory. Versioning and conditions live above this, in versioning/ and ops/.
import { fstatSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { S3Error } from '@vgwrdma/backend-contract';
import type { PosixEnv } from '../env.js';
import { readObjectAttrs, type StoredObjectAttrs } from '../meta/object-attrs.js';
import type { MetaStore } from '../meta/store.js';
import { mapObjectError, missingObject } from './errors.js';
import { abs, assertBucketName, assertKey, isFolderKey, objectRel } from './layout.js';
import { ReadFd } from './read-fd.js';

export interface OpenedObject {
  rel: string;
  /** The store holding this version's attributes (the main one, or the versioning dir's). */
  meta: MetaStore;
  /** Open for reading; undefined for folder objects (directories). */
  fh?: ReadFd;
  size: number;
  mtime: Date;
  attrs: StoredObjectAttrs;
  /** The version id to answer with (undefined on buckets that never had versioning). */
  versionId?: string;
}

/** Opens the regular file at `path` and reads its attributes through the fd where possible. */
export async function openFile(
  meta: MetaStore,
  rel: string,
  path: string,
  notFound: () => Promise<S3Error>,
): Promise<OpenedObject> {
  const fh = await ReadFd.open(path);
  try {
    // fstat of an open fd: no path lookup, no I/O — inline, not a thread-pool round trip
    const st = fstatSync(fh.fd);
    if (!st.isFile()) throw await notFound();
    const attrs = await readObjectAttrs(meta, rel, meta.kind === 'xattr' ? fh.fd : undefined);
    return { rel, meta, fh, size: st.size, mtime: st.mtime, attrs };
  } catch (err) {
    await fh.close();
    throw err;
  }
}

/**
 * Opens the latest version of `key` as stored at its object path, delete markers included: a
 * regular file for plain keys, a directory with an etag for folder keys. Anything else (a plain
 * key naming a directory, a folder key naming a file) is NoSuchKey.
 */
export async function openLatest(env: PosixEnv, bucket: string, key: string): Promise<OpenedObject> {
  assertBucketName(bucket);
  try {
    assertKey(key);
  } catch {
    throw await missingObject(env, bucket, key);
  }
  const rel = objectRel(bucket, key);
  const path = abs(env, rel);
  try {
    if (isFolderKey(key)) {
      const st = await stat(path);
      const attrs = st.isDirectory() ? await readObjectAttrs(env.meta, rel) : undefined;
      // In --nometa mode no directory carries an etag, so there are no folder objects.
      if (!attrs || attrs.etag === undefined) throw await missingObject(env, bucket, key);
      return { rel, meta: env.meta, size: 0, mtime: st.mtime, attrs };
    }
    return await openFile(env.meta, rel, path, () => missingObject(env, bucket, key));
  } catch (err) {
    throw await mapObjectError(err, env, bucket, key);
  }
}
