// Listing for the in-memory reference backend: the one paging algorithm S3 uses for objects,
// versions and uploads — sorted keys after a marker, rolled up at the delimiter, cut at maxKeys.

export interface ListPageInput {
  prefix?: string | undefined;
  delimiter?: string | undefined;
  /** List strictly after this key (or after everything under this common prefix). */
  after?: string | undefined;
  maxKeys: number;
}

export interface ListPage {
  keys: string[];
  commonPrefixes: string[];
  isTruncated: boolean;
  /** The last key or common prefix returned: where the next page starts after. */
  last?: string;
}

/** UTF-8 binary order, as S3 sorts keys. */
export function compareKeys(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}

export function listPage(allKeys: Iterable<string>, input: ListPageInput): ListPage {
  const { prefix = '', delimiter, after, maxKeys } = input;
  const page: ListPage = { keys: [], commonPrefixes: [], isTruncated: false };
  if (maxKeys <= 0) return page;
  const sorted = [...allKeys].filter((k) => k.startsWith(prefix)).sort(compareKeys);
  for (const key of sorted) {
    if (after !== undefined && compareKeys(key, after) <= 0) continue;
    // A marker that is a rolled-up prefix stands for every key under it.
    if (after !== undefined && delimiter && after.endsWith(delimiter) && key.startsWith(after)) continue;
    let entry = key;
    let isPrefix = false;
    if (delimiter) {
      const cut = key.indexOf(delimiter, prefix.length);
      if (cut >= 0) {
        entry = key.slice(0, cut + delimiter.length);
        isPrefix = true;
      }
    }
    if (isPrefix && page.commonPrefixes.at(-1) === entry) continue;
    if (page.keys.length + page.commonPrefixes.length === maxKeys) {
      page.isTruncated = true;
      break;
    }
    if (isPrefix) page.commonPrefixes.push(entry);
    else page.keys.push(entry);
    page.last = entry;
  }
  return page;
}
