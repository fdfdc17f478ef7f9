// ListPager: S3's paging over an ordered key stream — the marker (a key, or a rolled-up prefix),
// delimiter roll-up into common prefixes counted against maxKeys, truncation, maxKeys 0.
import { describe, expect, it } from 'vitest';
import { compareKeys, type ListPageInput, ListPager, pageUploads } from '../src/list-page.js';

const KEYS = ['a/1', 'a/2', 'b', 'c/x/1', 'c/y', 'd', 'é'].sort(compareKeys);

function page(input: ListPageInput, keys: readonly string[] = KEYS) {
  const pager = new ListPager<string>(input);
  let offered = 0;
  for (const k of keys) {
    offered++;
    if (!pager.offer(k, `item:${k}`)) break;
  }
  return { ...pager.page, offered };
}

describe('ListPager', () => {
  it('orders keys by UTF-8 bytes', () => {
    expect(['é', 'z', 'Z', 'a'].sort(compareKeys)).toEqual(['Z', 'a', 'z', 'é']);
  });

  it('lists everything without a delimiter, and stops at maxKeys with the page truncated', () => {
    expect(page({ maxKeys: 100 })).toMatchObject({ items: KEYS.map((k) => `item:${k}`), isTruncated: false });
    const cut = page({ maxKeys: 3 });
    expect(cut).toMatchObject({ items: ['item:a/1', 'item:a/2', 'item:b'], isTruncated: true, last: 'b' });
    // The fourth key only told the pager the page was full: no more were read.
    expect(cut.offered).toBe(4);
  });

  it('rolls keys up at the delimiter after the prefix; a common prefix counts as one entry', () => {
    expect(page({ delimiter: '/', maxKeys: 100 })).toMatchObject({
      items: ['item:b', 'item:d', 'item:é'],
      commonPrefixes: ['a/', 'c/'],
      isTruncated: false,
    });
    const under = KEYS.filter((k) => k.startsWith('c/'));
    expect(page({ prefix: 'c/', delimiter: '/', maxKeys: 100 }, under)).toMatchObject({
      items: ['item:c/y'],
      commonPrefixes: ['c/x/'],
    });
    expect(page({ delimiter: '/', maxKeys: 2 })).toMatchObject({
      items: ['item:b'],
      commonPrefixes: ['a/'],
      isTruncated: true,
      last: 'b',
    });
  });

  it('starts strictly after the marker; a marker that is a common prefix skips everything under it', () => {
    expect(page({ after: 'a/2', maxKeys: 100 }).items[0]).toBe('item:b');
    expect(page({ after: 'a/', delimiter: '/', maxKeys: 100 })).toMatchObject({
      items: ['item:b', 'item:d', 'item:é'],
      commonPrefixes: ['c/'],
    });
  });

  it('answers an empty, untruncated page for maxKeys 0 after one key', () => {
    expect(page({ maxKeys: 0 })).toEqual({ items: [], commonPrefixes: [], isTruncated: false, offered: 1 });
  });
});

describe('pageUploads', () => {
  const at = (s: number) => new Date(s * 1000);
  const uploads = [
    { key: 'b', uploadId: 'u3', initiated: at(3) },
    { key: 'a', uploadId: 'u2', initiated: at(2) },
    { key: 'a', uploadId: 'u1', initiated: at(1) },
    { key: 'x/c', uploadId: 'u4', initiated: at(4) },
  ];
  const ids = (out: { uploads: { uploadId: string }[] }) => out.uploads.map((u) => u.uploadId);

  it('orders by key, then initiation; pages with the next markers; STANDARD by default', () => {
    const first = pageUploads({ bucket: 'bk', maxUploads: 2 }, uploads);
    expect([ids(first), first.isTruncated, first.nextKeyMarker, first.nextUploadIdMarker]).toEqual([
      ['u1', 'u2'],
      true,
      'a',
      'u2',
    ]);
    expect(first.uploads[0]).toEqual({
      key: 'a',
      uploadId: 'u1',
      initiated: at(1),
      storageClass: 'STANDARD',
    });
    const next = pageUploads({ bucket: 'bk', maxUploads: 2, keyMarker: 'a', uploadIdMarker: 'u2' }, uploads);
    expect([ids(next), next.isTruncated, next.nextKeyMarker]).toEqual([['u3', 'u4'], false, undefined]);
  });

  it('skips every upload of the key marker without an upload-id marker, and filters by prefix', () => {
    expect(ids(pageUploads({ bucket: 'bk', maxUploads: 10, keyMarker: 'a' }, uploads))).toEqual(['u3', 'u4']);
    expect(ids(pageUploads({ bucket: 'bk', maxUploads: 10, prefix: 'x/' }, uploads))).toEqual(['u4']);
  });
});
