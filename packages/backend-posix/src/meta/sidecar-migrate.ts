// Converts a sidecar tree written with versitygw's layout (`<DIR>/<bucket>/<key>/meta/<attr>` for
// every key) to this gateway's (sidecar-path.ts: segments `meta`, `meta~`, ... get one more `~`).
// Only keys with such a segment move; everything else already is where the new layout looks.
// Runs at open, before anything is served:
// - the data tree says which paths exist, and so which `meta` directories are attribute
//   directories and which are key segments (the old layout alone is ambiguous);
// - deepest paths first, so a parent's attribute directory is emptied of its descendants before
//   its own files move; files move one by one (link + unlink: an existing new file wins), so an
//   interrupted run or two gateways starting at once leave every attribute in one of its two
//   places, and the next run finishes the job;
// - a directory left where a bucket attribute file belongs (metadata of a key under `meta/`
//   whose object is gone) is removed, so the bucket's configuration is readable again;
// - `<DIR>/.vgwrdma-layout` records that the tree is converted; later opens skip the walk.
import { randomBytes } from 'node:crypto';
import type { Dirent } from 'node:fs';
import { link, lstat, mkdir, readdir, rename, rm, rmdir, unlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { isErrno } from '../fs/errors.js';
import { TMP_DIR } from '../fs/layout.js';
import { attrDir, isEscaped, META_DIR } from './sidecar-path.js';

export const LAYOUT_MARKER = '.vgwrdma-layout';
const LAYOUT_VERSION = 'sidecar 2: key segments meta~* escaped\n';

interface MigrationResult {
  /** Whether the tree had already been converted (marker present): nothing was walked. */
  readonly skipped: boolean;
  /** Attribute files moved to their new place. */
  readonly moved: number;
}

/** Converts `sidecar` (attributes of the tree at `root`) to the current layout; idempotent. */
export async function migrateSidecar(root: string, sidecar: string): Promise<MigrationResult> {
  const marker = join(sidecar, LAYOUT_MARKER);
  if (await exists(marker)) return { skipped: true, moved: 0 };
  let moved = 0;
  for (const b of await readdir(root, { withFileTypes: true })) {
    if (!b.isDirectory() || b.name.startsWith('.')) continue;
    for (const segs of await escapedPaths(join(root, b.name))) {
      moved += await moveAttrs(
        join(sidecar, b.name, ...segs, META_DIR),
        attrDir(sidecar, [b.name, ...segs].join('/')),
        join(sidecar, b.name),
      );
    }
    await clearBucketAttrDir(join(sidecar, b.name, META_DIR));
  }
  const tmp = `${marker}.${process.pid}.${randomBytes(6).toString('hex')}`; // two opens in one process too
  await writeFile(tmp, LAYOUT_VERSION);
  await rename(tmp, marker);
  return { skipped: false, moved };
}

/** The entries of `dir`; none when it is gone or no directory. */
async function entriesOf(dir: string): Promise<Dirent[]> {
  try {
    return await readdir(dir, { withFileTypes: true });
  } catch (err) {
    if (isErrno(err, 'ENOENT', 'ENOTDIR')) return [];
    throw err;
  }
}

/**
 * The paths below a bucket directory (as segment lists) that have an escaped segment, deepest
 * first. `.sgwtmp` holds only generated names and is skipped.
 */
async function escapedPaths(bucketDir: string): Promise<string[][]> {
  const out: string[][] = [];
  const walk = async (dir: string, segs: string[], escaped: boolean): Promise<void> => {
    for (const e of await entriesOf(dir)) {
      if (segs.length === 0 && e.name === TMP_DIR) continue;
      const child = [...segs, e.name];
      const childEscaped = escaped || isEscaped(e.name);
      if (e.isDirectory()) await walk(join(dir, e.name), child, childEscaped);
      if (childEscaped) out.push(child);
    }
  };
  await walk(bucketDir, [], false);
  return out; // children were pushed before their parents
}

/** Moves the attribute files of `from` into `to` (an existing file in `to` wins); returns how many moved. */
async function moveAttrs(from: string, to: string, stopAt: string): Promise<number> {
  let names: Dirent[];
  try {
    names = await readdir(from, { withFileTypes: true });
  } catch (err) {
    if (isErrno(err, 'ENOENT', 'ENOTDIR')) return 0;
    throw err;
  }
  let moved = 0;
  for (const e of names) {
    if (!e.isFile()) continue; // a descendant's path in the old layout, moved on its own
    if (await moveFile(join(from, e.name), to, e.name)) moved++;
  }
  await prune(from, stopAt);
  return moved;
}

/** link + unlink, so an attribute already in its new place is never overwritten. */
async function moveFile(from: string, toDir: string, name: string): Promise<boolean> {
  const to = join(toDir, name);
  for (let attempt = 0; ; attempt++) {
    try {
      await mkdir(toDir, { recursive: true });
      await link(from, to);
      break;
    } catch (err) {
      if (isErrno(err, 'EEXIST')) {
        await unlink(from).catch(() => undefined);
        return false;
      }
      if (isErrno(err, 'ENOENT')) {
        if (!(await exists(from))) return false; // another gateway moved it
        if (attempt < 3) continue; // another gateway pruned the new parent meanwhile
        throw err;
      }
      // No hard links here: rename, unless the new name exists.
      if (await exists(to)) {
        await unlink(from).catch(() => undefined);
        return false;
      }
      await rename(from, to);
      return true;
    }
  }
  await unlink(from).catch(() => undefined);
  return true;
}

/** Directories in a bucket's attribute directory are never attributes: old metadata of gone keys. */
async function clearBucketAttrDir(dir: string): Promise<void> {
  for (const e of await entriesOf(dir)) {
    if (e.isDirectory()) await rm(join(dir, e.name), { recursive: true, force: true });
  }
}

/** Removes `dir` and its empty parents, up to (not including) `stopAt`. */
async function prune(dir: string, stopAt: string): Promise<void> {
  for (let cur = dir; cur.startsWith(`${stopAt}/`); cur = dirname(cur)) {
    try {
      await rmdir(cur);
    } catch {
      return;
    }
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch (err) {
    if (isErrno(err, 'ENOENT', 'ENOTDIR')) return false;
    throw err;
  }
}
