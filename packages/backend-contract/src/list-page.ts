// S3's paging of a listing, for backends that see their keys as one ordered stream (the Azure
// backend's flat blob listing, the in-memory reference backend): skip up to the marker, roll keys
// up at the delimiter into common prefixes, stop after maxKeys entries. The caller feeds keys
// that already start with the prefix, in S3 order (compareKeys), and stops when offer() says so.
// pageUploads does the same for ListMultipartUploads over a bucket's uploads held in full;
// unversionedPage answers ListObjectVersions from such a page where a store keeps no versions.
import type { ListedVersion, ListObjectVersionsOutput } from './types/listing.js';
import type {
  ListedUpload,
  ListMultipartUploadsInput,
  ListMultipartUploadsOutput,
} from './types/multipart.js';

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

/** An upload as a backend knows it; the storage class defaults to STANDARD. */
export type UploadEntry = Omit<ListedUpload, 'storageClass'> & { storageClass?: string };

/**
 * ListMultipartUploads over every upload of a bucket, for backends that hold them all at hand:
 * those under the prefix, after the key marker (an upload of the marker key itself only after
 * the upload-id marker), by key then initiation time, at most maxUploads, with the next markers
 * of a truncated page. The delimiter is not applied (no common prefixes).
 */
export function pageUploads(
  input: ListMultipartUploadsInput,
  all: Iterable<UploadEntry>,
): ListMultipartUploadsOutput {
  const prefix = input.prefix ?? '';
  const { keyMarker, uploadIdMarker } = input;
  const sorted = [...all]
    .filter((u) => u.key.startsWith(prefix))
    .filter((u) => {
      if (keyMarker === undefined) return true;
      const c = compareKeys(u.key, keyMarker);
      return c > 0 || (c === 0 && uploadIdMarker !== undefined && u.uploadId > uploadIdMarker);
    })
    .sort((a, b) => compareKeys(a.key, b.key) || a.initiated.getTime() - b.initiated.getTime());
  const page = sorted.slice(0, input.maxUploads);
  const out: ListMultipartUploadsOutput = {
    bucket: input.bucket,
    uploads: page.map((u) => ({ ...u, storageClass: u.storageClass ?? 'STANDARD' })),
    commonPrefixes: [],
    isTruncated: sorted.length > page.length,
    maxUploads: input.maxUploads,
  };
  const last = page.at(-1);
  if (out.isTruncated && last) {
    out.nextKeyMarker = last.key;
    out.nextUploadIdMarker = last.uploadId;
  }
  return out;
}

/**
 * ListObjectVersions for a store that keeps no versions: each listed object is its one version,
 * "null" and the latest; there are no delete markers; a truncated page continues after its last
 * key's "null" version.
 */
export function unversionedPage(
  page: Pick<ListPageResult<unknown>, 'commonPrefixes' | 'isTruncated' | 'last'>,
  objects: readonly Omit<ListedVersion, 'versionId' | 'isLatest'>[],
): ListObjectVersionsOutput {
  const out: ListObjectVersionsOutput = {
    versions: objects.map((o) => ({ ...o, versionId: 'null', isLatest: true })),
    deleteMarkers: [],
    commonPrefixes: page.commonPrefixes,
    isTruncated: page.isTruncated,
  };
  if (page.isTruncated && page.last !== undefined) {
    out.nextKeyMarker = page.last;
    out.nextVersionIdMarker = 'null';
  }
  return out;
}
