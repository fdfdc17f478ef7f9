// A walk over a bucket's tree that yields keys in S3 order (lexicographic by UTF-8 bytes).
// Directory entries are sorted by the key they contribute ("name/" for directories), which makes
// a depth-first walk globally ordered. Only subtrees that can hold keys under the prefix and
// after the marker are read; with delimiter "/" a directory past the prefix is reported as one
// common prefix without reading further than needed to know it holds an object.
import type { Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';
import type { PosixEnv } from '../env.js';
import { isErrno } from '../fs/errors.js';
import { abs, TMP_DIR } from '../fs/layout.js';
import { ATTR } from '../meta/attr-names.js';

type WalkEntry =
  | { kind: 'object'; key: string; rel: string; isDir: boolean }
  | { kind: 'prefix'; key: string };

interface WalkOptions {
  prefix: string;
  /** Report directories past the prefix as common prefixes (delimiter "/"). */
  collapse: boolean;
  /** Only keys strictly after this one (byte order). */
  after?: string | undefined;
  /**
   * A directory whose only files are delete markers is no common prefix (ListObjects); the
   * versions listing keeps it. Only trees with a versioning dir have markers.
   */
  hideMarkers?: boolean;
}

/** Byte-order comparison of two keys, as S3 sorts them (not UTF-16 order). */
export function compareKeys(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

interface Item {
  name: string;
  isDir: boolean;
  sortKey: Buffer;
}

async function readDir(env: PosixEnv, rel: string): Promise<Dirent[]> {
  try {
    return await readdir(abs(env, rel), { withFileTypes: true });
  } catch (err) {
    if (isErrno(err, 'ENOENT', 'ENOTDIR')) return [];
    throw err;
  }
}

async function sortedItems(env: PosixEnv, bucket: string, dirKey: string): Promise<Item[]> {
  const rel = dirKey === '' ? bucket : `${bucket}/${dirKey.slice(0, -1)}`;
  const items: Item[] = [];
  for (const e of await readDir(env, rel)) {
    if (dirKey === '' && e.name === TMP_DIR) continue;
    const isDir = e.isDirectory();
    if (!isDir && !e.isFile()) continue; // sockets, fifos, symlinks are not objects
    items.push({ name: e.name, isDir, sortKey: Buffer.from(dirKey + e.name + (isDir ? '/' : ''), 'utf8') });
  }
  return items.sort((x, y) => Buffer.compare(x.sortKey, y.sortKey));
}

function relOf(bucket: string, key: string): string {
  return `${bucket}/${key.endsWith('/') ? key.slice(0, -1) : key}`;
}

async function isFolderObject(env: PosixEnv, rel: string): Promise<boolean> {
  return (await env.meta.get(rel, ATTR.etag).catch(() => undefined)) !== undefined;
}

async function isMarkerFile(env: PosixEnv, rel: string): Promise<boolean> {
  return (await env.meta.get(rel, ATTR.deleteMarker).catch(() => undefined)) !== undefined;
}

/** True when the subtree of directory key `dirKey` holds at least one object. */
async function holdsObject(
  env: PosixEnv,
  bucket: string,
  dirKey: string,
  hideMarkers: boolean,
): Promise<boolean> {
  if (await isFolderObject(env, relOf(bucket, dirKey))) return true;
  const items = await sortedItems(env, bucket, dirKey);
  for (const i of items) {
    if (i.isDir) continue;
    if (!hideMarkers || !(await isMarkerFile(env, relOf(bucket, `${dirKey}${i.name}`)))) return true;
  }
  for (const i of items)
    if (i.isDir && (await holdsObject(env, bucket, `${dirKey}${i.name}/`, hideMarkers))) return true;
  return false;
}

export async function* walk(env: PosixEnv, bucket: string, opts: WalkOptions): AsyncGenerator<WalkEntry> {
  yield* visit(env, bucket, '', opts);
}

async function* visit(
  env: PosixEnv,
  bucket: string,
  dirKey: string,
  opts: WalkOptions,
): AsyncGenerator<WalkEntry> {
  const { prefix, after } = opts;
  for (const item of await sortedItems(env, bucket, dirKey)) {
    const key = item.sortKey.toString('utf8');
    if (!item.isDir) {
      if (key.startsWith(prefix) && (after === undefined || compareKeys(key, after) > 0)) {
        yield { kind: 'object', key, rel: relOf(bucket, key), isDir: false };
      }
      continue;
    }
    const under = key.startsWith(prefix);
    if (!under && !prefix.startsWith(key)) continue;
    // Every key below `key` starts with it: if `key` sorts before the marker and the marker is
    // not inside this subtree, the whole subtree does too.
    if (after !== undefined && compareKeys(key, after) < 0 && !after.startsWith(key)) continue;
    if (opts.collapse && under && key.length > prefix.length) {
      if (await holdsObject(env, bucket, key, opts.hideMarkers === true && env.versions !== undefined))
        yield { kind: 'prefix', key };
      continue;
    }
    if (
      under &&
      (after === undefined || compareKeys(key, after) > 0) &&
      (await isFolderObject(env, relOf(bucket, key)))
    ) {
      yield { kind: 'object', key, rel: relOf(bucket, key), isDir: true };
    }
    yield* visit(env, bucket, key, opts);
  }
}

/**
 * The CommonPrefix an entry of the walk rolls up into, or undefined when it is listed itself: a
 * collapsed directory is one already; a key is one when the delimiter occurs after the prefix.
 */
export function commonPrefixOf(
  e: { readonly kind: string; readonly key: string },
  prefix: string,
  delimiter: string,
): string | undefined {
  if (e.kind === 'prefix') return e.key;
  if (delimiter === '') return undefined;
  const idx = e.key.indexOf(delimiter, prefix.length);
  return idx >= 0 ? e.key.slice(0, idx + delimiter.length) : undefined;
}
