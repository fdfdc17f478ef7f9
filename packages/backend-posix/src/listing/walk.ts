// A walk over a bucket's tree that yields keys in S3 order (lexicographic by UTF-8 bytes).
// Directory entries are sorted by the key they contribute ("name/" for directories), which makes
// a depth-first walk globally ordered. Only subtrees that can hold keys under the prefix and
// after the marker are read; with delimiter "/" a directory past the prefix is reported as one
// common prefix without reading further than needed to know it holds an object.
import type { PosixEnv } from '../env.js';
import { abs, TMP_DIR } from '../fs/layout.js';
import { ATTR } from '../meta/attr-names.js';
import { type Item, sortedEntries } from './dir-cache.js';

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

async function sortedItems(env: PosixEnv, bucket: string, dirKey: string): Promise<Item[]> {
  const rel = dirKey === '' ? bucket : `${bucket}/${dirKey.slice(0, -1)}`;
  return sortedEntries(abs(env, rel), dirKey, dirKey === '' ? TMP_DIR : undefined);
}

/**
 * Index of the first item that can hold keys after `after`: the first one sorting after it, or
 * the directory just before that whose subtree `after` lies in (its key is a prefix of `after`,
 * and no other item sorts between them: names hold no "/").
 */
function firstAfter(items: Item[], after: Buffer): number {
  let lo = 0;
  let hi = items.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (Buffer.compare((items[mid] as Item).sortKey, after) <= 0) lo = mid + 1;
    else hi = mid;
  }
  const prev = items[lo - 1];
  if (prev?.isDir && after.subarray(0, prev.sortKey.length).equals(prev.sortKey)) return lo - 1;
  return lo;
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
  yield* visit(env, bucket, '', opts, opts.after === undefined ? undefined : Buffer.from(opts.after, 'utf8'));
}

async function* visit(
  env: PosixEnv,
  bucket: string,
  dirKey: string,
  opts: WalkOptions,
  afterBuf: Buffer | undefined,
): AsyncGenerator<WalkEntry> {
  const { prefix } = opts;
  const items = await sortedItems(env, bucket, dirKey);
  for (let i = afterBuf === undefined ? 0 : firstAfter(items, afterBuf); i < items.length; i++) {
    const item = items[i] as Item;
    const key = item.key;
    // Past firstAfter every item sorts after the marker, but the directory holding it.
    const afterMarker = afterBuf === undefined || Buffer.compare(item.sortKey, afterBuf) > 0;
    if (!item.isDir) {
      if (afterMarker && key.startsWith(prefix))
        yield { kind: 'object', key, rel: relOf(bucket, key), isDir: false };
      continue;
    }
    const under = key.startsWith(prefix);
    if (!under && !prefix.startsWith(key)) continue;
    if (opts.collapse && under && key.length > prefix.length) {
      if (await holdsObject(env, bucket, key, opts.hideMarkers === true && env.versions !== undefined))
        yield { kind: 'prefix', key };
      continue;
    }
    if (under && afterMarker && (await isFolderObject(env, relOf(bucket, key)))) {
      yield { kind: 'object', key, rel: relOf(bucket, key), isDir: true };
    }
    yield* visit(env, bucket, key, opts, afterBuf);
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
