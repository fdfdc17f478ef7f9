// A directory's entries in S3 key order, kept between listings while the directory is unchanged:
// paging a 10,000-entry directory in pages of 1000 would otherwise read and sort it ten times.
// Validity is the filesystem's own: the directory's (dev, ino, mtime, ctime) in nanoseconds, read
// by a stat before each use, so an entry created, removed or renamed by any process sharing the
// tree shows up in the next listing. Only the names and types are kept; size, mtime and
// attributes are read per entry on every listing. A timestamp comes from the kernel's coarse
// clock (one tick, ≤ 10 ms, may pass unseen), so a directory changed less than RACY_MS before it
// was read is not kept: a later change then moves ctime past the kept value.
import { type BigIntStats, type Dirent, statSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { isErrno } from '../fs/errors.js';

/** How long a directory must have been unchanged before its entries are kept. */
export const RACY_MS = 1000;
const MAX_DIRS = 64;
const MAX_ITEMS = 400_000;

export interface Item {
  name: string;
  isDir: boolean;
  /** The key it contributes (`dirKey + name`, plus "/" for a directory). */
  key: string;
  sortKey: Buffer;
}

interface Kept {
  stamp: string;
  items: Item[];
}

const kept = new Map<string, Kept>();
let keptItems = 0;

function stampOf(st: BigIntStats): string {
  return `${st.dev}:${st.ino}:${st.mtimeNs}:${st.ctimeNs}`;
}

function statDir(path: string): BigIntStats | undefined {
  try {
    return statSync(path, { bigint: true, throwIfNoEntry: false });
  } catch (err) {
    if (isErrno(err, 'ENOTDIR')) return undefined;
    throw err;
  }
}

function forget(path: string): void {
  const k = kept.get(path);
  if (!k) return;
  kept.delete(path);
  keptItems -= k.items.length;
}

function keep(path: string, entry: Kept): void {
  forget(path);
  if (entry.items.length > MAX_ITEMS) return;
  kept.set(path, entry);
  keptItems += entry.items.length;
  for (const oldest of kept.keys()) {
    if (kept.size <= MAX_DIRS && keptItems <= MAX_ITEMS) break;
    forget(oldest);
  }
}

function toItems(entries: Dirent[], dirKey: string, skip: string | undefined): Item[] {
  const items: Item[] = [];
  for (const e of entries) {
    if (e.name === skip) continue;
    const isDir = e.isDirectory();
    if (!isDir && !e.isFile()) continue; // sockets, fifos, symlinks are not objects
    const key = dirKey + e.name + (isDir ? '/' : '');
    items.push({ name: e.name, isDir, key, sortKey: Buffer.from(key, 'utf8') });
  }
  return items.sort((x, y) => Buffer.compare(x.sortKey, y.sortKey));
}

/**
 * The entries of directory `path` (whose key is `dirKey`) that can be objects or hold them, in
 * byte order of their keys; `skip` is a name left out (the bucket's temp area). A missing
 * directory has none. The array is shared: callers do not change it.
 */
export async function sortedEntries(path: string, dirKey: string, skip?: string): Promise<Item[]> {
  const st = statDir(path);
  if (!st?.isDirectory()) {
    forget(path);
    return [];
  }
  const stamp = stampOf(st);
  const hit = kept.get(path);
  if (hit?.stamp === stamp) {
    kept.delete(path); // most recently used last
    kept.set(path, hit);
    return hit.items;
  }
  const startedAt = Date.now();
  let entries: Dirent[];
  try {
    entries = await readdir(path, { withFileTypes: true });
  } catch (err) {
    if (isErrno(err, 'ENOENT', 'ENOTDIR')) return [];
    throw err;
  }
  const items = toItems(entries, dirKey, skip);
  const settled = BigInt(startedAt - RACY_MS);
  if (st.ctimeMs < settled && st.mtimeMs < settled) keep(path, { stamp, items });
  else forget(path);
  return items;
}

/** Drops every kept directory (tests, and a backend that closes). */
export function clearDirCache(): void {
  kept.clear();
  keptItems = 0;
}

/** How many directories are kept (tests). */
export function keptDirs(): number {
  return kept.size;
}
