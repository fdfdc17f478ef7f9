// Listing for the in-memory reference backend: the one paging algorithm S3 uses for objects,
// versions and uploads — sorted keys after a marker, rolled up at the delimiter, cut at maxKeys
// (backend-contract's ListPager, which the Azure backend pages with too).
import { compareKeys, type ListPageInput, ListPager } from '@vgwrdma/backend-contract';

export interface ListPage {
  keys: string[];
  commonPrefixes: string[];
  isTruncated: boolean;
  /** The last key or common prefix returned: where the next page starts after. */
  last?: string;
}

export function listPage(allKeys: Iterable<string>, input: ListPageInput): ListPage {
  const pager = new ListPager<string>(input);
  const prefix = input.prefix ?? '';
  const sorted = [...allKeys].filter((k) => k.startsWith(prefix)).sort(compareKeys);
  for (const key of sorted) if (!pager.offer(key, key)) break;
  const { items, ...rest } = pager.page;
  return { keys: items, ...rest };
}
