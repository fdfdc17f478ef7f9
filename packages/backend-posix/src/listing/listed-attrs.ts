// The attributes a listing shows of each key (ETag, checksum algorithm, and in a versioned tree
// whether the latest version is a delete marker), kept per file between listings while the file is
// unchanged. Validity is the filesystem's: the file's inode, ctime, mtime (to the nanosecond) and
// size from the listing's own stat (entry-stat.ts), compared field by field. Every xattr write (and every publish by rename, which brings a new inode)
// moves the ctime, whoever makes it, so a changed attribute shows up in the next listing. As for
// directories (dir-cache.ts), a file changed less than RACY_MS before it was read is not kept:
// ctime ticks coarsely. Only the xattr store keeps attributes on the inode; with a sidecar tree
// the file's ctime says nothing about them and nothing is kept.
import type { ChecksumAlgorithm } from '@vgwrdma/backend-contract';
import type { PosixEnv } from '../env.js';
import { ATTR } from '../meta/attr-names.js';
import type { StoredChecksums } from '../meta/object-attrs.js';
import { getJson, getText } from '../meta/store.js';
import { RACY_MS } from './dir-cache.js';
import { type EntryStat, wholeMs } from './entry-stat.js';

export interface ListedAttrs {
  etag: string;
  algorithm?: ChecksumAlgorithm;
  deleteMarker: boolean;
}

const MAX_FILES = 250_000;
const kept = new Map<string, { stat: EntryStat; attrs: ListedAttrs }>();

function same(a: EntryStat, b: EntryStat): boolean {
  return (
    a.ino === b.ino &&
    a.size === b.size &&
    a.ctimeNsec === b.ctimeNsec &&
    a.ctimeSec === b.ctimeSec &&
    a.mtimeNsec === b.mtimeNsec &&
    a.mtimeSec === b.mtimeSec &&
    a.isDir === b.isDir
  );
}

async function readListedAttrs(env: PosixEnv, rel: string, isDir: boolean): Promise<ListedAttrs> {
  // Markers exist only with a versioning dir: other trees skip the read.
  const deleteMarker =
    env.versions !== undefined &&
    !isDir &&
    (await env.meta.get(rel, ATTR.deleteMarker).catch(() => undefined)) !== undefined;
  const attrs: ListedAttrs = { etag: (await getText(env.meta, rel, ATTR.etag)) ?? '', deleteMarker };
  const sums = await getJson<StoredChecksums>(env.meta, rel, ATTR.checksums);
  if (sums?.Algorithm) attrs.algorithm = sums.Algorithm;
  return attrs;
}

/**
 * The listed attributes of the file or directory at `path` (= root + `rel`), `st` its stat; kept
 * ones are answered without a call into the event loop (a whole page is usually kept).
 */
export function listedAttrs(
  env: PosixEnv,
  path: string,
  rel: string,
  st: EntryStat,
): ListedAttrs | Promise<ListedAttrs> {
  if (env.meta.kind !== 'xattr') return readListedAttrs(env, rel, st.isDir);
  const hit = kept.get(path);
  if (hit !== undefined && same(hit.stat, st)) return hit.attrs;
  return readAndKeep(env, path, rel, st);
}

async function readAndKeep(env: PosixEnv, path: string, rel: string, st: EntryStat): Promise<ListedAttrs> {
  const attrs = await readListedAttrs(env, rel, st.isDir);
  if (wholeMs(st.ctimeSec, st.ctimeNsec) < Date.now() - RACY_MS) {
    kept.delete(path);
    kept.set(path, { stat: st, attrs });
    if (kept.size > MAX_FILES)
      for (const oldest of kept.keys()) {
        kept.delete(oldest);
        if (kept.size <= MAX_FILES) break;
      }
  } else kept.delete(path);
  return attrs;
}

/** Drops every kept file (tests). */
export function clearListedAttrs(): void {
  kept.clear();
}
