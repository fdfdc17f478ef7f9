// S3's paging of a listing, for backends that see their keys as one ordered stream (the Azure
// backend's flat blob listing, the in-memory reference backend): skip up to the marker, roll keys
// up at the delimiter into common prefixes, stop after maxKeys entries. The caller feeds keys
// that already start with the prefix, in S3 order (compareKeys), and stops when offer() says so.

export interface ListPageInput {
  prefix?: string | undefined;
  delimiter?: string | undefined;
  /** List strictly after this key (or, when it is a rolled-up prefix, after everything under it). */
  after?: string | undefined;
  maxKeys: number;
}

export interface ListPageResult<T> {
  items: T[];
  commonPrefixes: string[];
  isTruncated: boolean;
  /** The last key or common prefix returned: where the next page starts after. */
  last?: string;
}

/** UTF-8 byte order, as S3 sorts keys. */
export function compareKeys(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}

export class ListPager<T> {
  readonly page: ListPageResult<T> = { items: [], commonPrefixes: [], isTruncated: false };

  constructor(private readonly input: ListPageInput) {}

  /**
   * Offers the next key and the item it stands for. Answers false once the page is full: the
   * caller stops reading (a further key only made the page truncated).
   */
  offer(key: string, item: T): boolean {
    const { prefix = '', delimiter, after, maxKeys } = this.input;
    const page = this.page;
    if (maxKeys <= 0) return false;
    if (after !== undefined && compareKeys(key, after) <= 0) return true;
    // A marker that is a rolled-up prefix stands for every key under it.
    if (after !== undefined && delimiter && after.endsWith(delimiter) && key.startsWith(after)) return true;
    let entry = key;
    let isPrefix = false;
    if (delimiter) {
      const cut = key.indexOf(delimiter, prefix.length);
      if (cut >= 0) {
        entry = key.slice(0, cut + delimiter.length);
        isPrefix = true;
      }
    }
    if (isPrefix && page.commonPrefixes.at(-1) === entry) return true;
    if (page.items.length + page.commonPrefixes.length >= maxKeys) {
      page.isTruncated = true;
      return false;
    }
    if (isPrefix) page.commonPrefixes.push(entry);
    else page.items.push(item);
    page.last = entry;
    return true;
  }
}
