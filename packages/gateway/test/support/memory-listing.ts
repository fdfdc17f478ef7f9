// Listing over a memory bucket: sorted keys, prefix, delimiter roll-up, start key, max keys.
import type { ListedObject, ListObjectsOutput } from '@vgwrdma/s3-backend';
import type { MemBucket } from './memory-store.js';

export function listPage(
  b: MemBucket,
  input: { prefix?: string; delimiter?: string; maxKeys: number },
  after: string | undefined,
): ListObjectsOutput {
  const prefix = input.prefix ?? '';
  const keys = [...b.objects.keys()]
    .filter((k) => k.startsWith(prefix) && (after === undefined || k > after))
    .sort();
  const contents: ListedObject[] = [];
  const prefixes: string[] = [];
  let last: string | undefined;
  let isTruncated = false;
  for (const key of keys) {
    const d = input.delimiter ? key.indexOf(input.delimiter, prefix.length) : -1;
    const cp = d >= 0 && input.delimiter ? key.slice(0, d + input.delimiter.length) : undefined;
    if (cp !== undefined && prefixes.includes(cp)) continue;
    if (contents.length + prefixes.length >= input.maxKeys) {
      isTruncated = true;
      break;
    }
    if (cp !== undefined) {
      prefixes.push(cp);
      last = cp;
      continue;
    }
    const o = b.objects.get(key);
    if (!o) continue;
    contents.push({
      key,
      lastModified: o.lastModified,
      etag: o.etag,
      size: o.size,
      storageClass: 'STANDARD',
      owner: { id: b.owner },
    });
    last = key;
  }
  const out: ListObjectsOutput = { contents, commonPrefixes: prefixes, isTruncated };
  // A prefix as marker skips the rest of that prefix: its keys all sort after it but before
  // prefix + 0xFFFF.
  if (isTruncated && last !== undefined) out.nextMarker = prefixes.includes(last) ? `${last}\uFFFF` : last;
  return out;
}
