// Directory housekeeping: creating parents for a new object (with dirPerms), and removing the
// parents a delete left empty. Both race with each other across requests; the publish step
// retries when a parent vanished between mkdir and rename.
import { mkdir, rmdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { S3Error } from '@vgwrdma/backend-contract';
import { ATTR } from '../meta/attr-names.js';
import type { MetaStore } from '../meta/store.js';
import { isErrno } from './errors.js';
import { chownCreatedDirs, type FileOwner } from './file-owner.js';
import { abs, type Layout } from './layout.js';

/**
 * Creates the parent directories of `rel`; a file in the way is ObjectParentIsFile. With an
 * owner (--chuid/--chgid) the directories made here are chowned to it.
 */
export async function makeParents(
  layout: Layout,
  rel: string,
  dirPerms: number,
  owner?: FileOwner,
): Promise<void> {
  try {
    const dir = dirname(abs(layout, rel));
    const first = await mkdir(dir, { recursive: true, mode: dirPerms });
    if (owner) await chownCreatedDirs(first, dir, owner);
  } catch (err) {
    if (isErrno(err, 'EEXIST', 'ENOTDIR')) throw new S3Error('ObjectParentIsFile');
    throw err;
  }
}

/**
 * Removes empty directories from `dirRel` upwards, stopping below the bucket directory, at the
 * first directory that is not empty, or at a folder object (a directory with an etag).
 */
export async function removeEmptyParents(layout: Layout, meta: MetaStore, dirRel: string): Promise<void> {
  let cur = dirRel;
  while (cur.includes('/')) {
    if ((await meta.get(cur, ATTR.etag).catch(() => undefined)) !== undefined) return;
    try {
      await rmdir(abs(layout, cur));
    } catch {
      return; // not empty, already gone, or not a directory: nothing more to prune
    }
    await meta.dropped(cur);
    cur = dirname(cur);
  }
}

/** Short pauses between retries of a publish whose parent directory was removed under it. */
export function backoff(attempt: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.min(2 ** attempt, 50)));
}
