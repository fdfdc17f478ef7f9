// Conformance cases: ListObjects (v1) and ListObjectsV2 — order, prefix, delimiter, paging,
// StartAfter, MaxKeys 0 — and ListObjectVersions on an unversioned bucket (null versions).
import { expect } from 'vitest';
import type { ListObjectsOutput } from '../types/listing.js';
import { expectS3Error, type Harness } from './harness.js';

const KEYS = ['a', 'b/1', 'b/2', 'b/sub/3', 'c/x/y', 'd', 'e-1', 'e-2'];

export function listingCases(h: Harness): void {
  const filled = async (tag: string) => {
    const b = await h.bucket(tag);
    // Put out of order: a listing must sort, not echo insertion order.
    for (const k of [...KEYS].reverse()) await h.put(b, k, `body of ${k}`);
    return b;
  };

  h.case(
    'list.v2-all',
    'ListObjectsV2 lists every key in UTF-8 binary order with ETag, size and date',
    async () => {
      const b = await filled('lall');
      const out = await h.backend.listObjectsV2(h.ctx, { bucket: b, maxKeys: 1000 });
      expect(out.contents.map((o) => o.key)).toEqual(KEYS);
      expect(out.isTruncated).toBe(false);
      const a = out.contents[0];
      expect(a?.size).toBe('body of a'.length);
      expect(a?.etag).toMatch(/^"[0-9a-f]{32}"$/);
      expect(a?.lastModified).toBeInstanceOf(Date);
    },
  );

  h.case('list.v2-prefix', 'ListObjectsV2 with a prefix lists only keys starting with it', async () => {
    const b = await filled('lpre');
    const out = await h.backend.listObjectsV2(h.ctx, { bucket: b, prefix: 'b/', maxKeys: 1000 });
    expect(out.contents.map((o) => o.key)).toEqual(['b/1', 'b/2', 'b/sub/3']);
    const partial = await h.backend.listObjectsV2(h.ctx, { bucket: b, prefix: 'e', maxKeys: 1000 });
    expect(partial.contents.map((o) => o.key)).toEqual(['e-1', 'e-2']);
  });

  h.case(
    'list.v2-delimiter',
    'ListObjectsV2 with delimiter "/" rolls keys up into CommonPrefixes',
    async () => {
      const b = await filled('ldel');
      const top = await h.backend.listObjectsV2(h.ctx, { bucket: b, delimiter: '/', maxKeys: 1000 });
      expect(top.contents.map((o) => o.key)).toEqual(['a', 'd', 'e-1', 'e-2']);
      expect(top.commonPrefixes).toEqual(['b/', 'c/']);
      const inner = await h.backend.listObjectsV2(h.ctx, {
        bucket: b,
        prefix: 'b/',
        delimiter: '/',
        maxKeys: 1000,
      });
      expect(inner.contents.map((o) => o.key)).toEqual(['b/1', 'b/2']);
      expect(inner.commonPrefixes).toEqual(['b/sub/']);
    },
  );

  h.case(
    'list.v2-paging',
    'ListObjectsV2 pages by MaxKeys with continuation tokens, each key exactly once',
    async () => {
      const b = await filled('lpage');
      const seen: string[] = [];
      let token: string | undefined;
      let pages = 0;
      do {
        const out: ListObjectsOutput = await h.backend.listObjectsV2(h.ctx, {
          bucket: b,
          maxKeys: 3,
          ...(token === undefined ? {} : { continuationToken: token }),
        });
        expect(out.contents.length).toBeLessThanOrEqual(3);
        seen.push(...out.contents.map((o) => o.key));
        token = out.isTruncated ? out.nextContinuationToken : undefined;
        if (out.isTruncated) expect(token, 'a truncated page carries a continuation token').toBeTruthy();
        pages++;
      } while (token !== undefined && pages < 10);
      expect(seen).toEqual(KEYS);
      expect(pages).toBe(3);
    },
  );

  h.case(
    'list.v2-paging-delimiter',
    'Paging with a delimiter counts CommonPrefixes toward MaxKeys and repeats none',
    async () => {
      const b = await filled('lpaged');
      const seen: string[] = [];
      let token: string | undefined;
      for (let pages = 0; pages < 10; pages++) {
        const out: ListObjectsOutput = await h.backend.listObjectsV2(h.ctx, {
          bucket: b,
          delimiter: '/',
          maxKeys: 2,
          ...(token === undefined ? {} : { continuationToken: token }),
        });
        expect(out.contents.length + out.commonPrefixes.length).toBeLessThanOrEqual(2);
        seen.push(...out.contents.map((o) => o.key), ...out.commonPrefixes);
        if (!out.isTruncated) break;
        token = out.nextContinuationToken;
      }
      expect(seen.sort()).toEqual(['a', 'b/', 'c/', 'd', 'e-1', 'e-2']);
    },
  );

  h.case(
    'list.v2-start-after',
    'ListObjectsV2 StartAfter lists only keys after it (the key itself excluded)',
    async () => {
      const b = await filled('lsa');
      const out = await h.backend.listObjectsV2(h.ctx, { bucket: b, startAfter: 'b/2', maxKeys: 1000 });
      expect(out.contents.map((o) => o.key)).toEqual(['b/sub/3', 'c/x/y', 'd', 'e-1', 'e-2']);
      const none = await h.backend.listObjectsV2(h.ctx, { bucket: b, startAfter: 'zzz', maxKeys: 1000 });
      expect(none.contents).toEqual([]);
    },
  );

  h.case('list.max-keys-zero', 'MaxKeys 0 answers an empty listing', async () => {
    const b = await filled('lzero');
    for (const out of [
      await h.backend.listObjectsV2(h.ctx, { bucket: b, maxKeys: 0 }),
      await h.backend.listObjects(h.ctx, { bucket: b, maxKeys: 0 }),
    ]) {
      expect(out.contents).toEqual([]);
      expect(out.commonPrefixes).toEqual([]);
    }
  });

  h.case(
    'list.v1-marker',
    'ListObjects (v1) pages with Marker: next marker is NextMarker or the last key',
    async () => {
      const b = await filled('lv1');
      const seen: string[] = [];
      let marker: string | undefined;
      for (let pages = 0; pages < 10; pages++) {
        const out: ListObjectsOutput = await h.backend.listObjects(h.ctx, {
          bucket: b,
          maxKeys: 3,
          ...(marker === undefined ? {} : { marker }),
        });
        seen.push(...out.contents.map((o) => o.key));
        if (!out.isTruncated) break;
        marker = out.nextMarker ?? out.contents.at(-1)?.key;
      }
      expect(seen).toEqual(KEYS);
      const afterD = await h.backend.listObjects(h.ctx, { bucket: b, marker: 'd', maxKeys: 1000 });
      expect(afterD.contents.map((o) => o.key)).toEqual(['e-1', 'e-2']);
    },
  );

  h.case('list.v1-delimiter', 'ListObjects (v1) with prefix and delimiter', async () => {
    const b = await filled('lv1d');
    const out = await h.backend.listObjects(h.ctx, {
      bucket: b,
      prefix: 'b/',
      delimiter: '/',
      maxKeys: 1000,
    });
    expect(out.contents.map((o) => o.key)).toEqual(['b/1', 'b/2']);
    expect(out.commonPrefixes).toEqual(['b/sub/']);
  });

  h.case('list.missing-bucket', 'Listing a missing bucket answers NoSuchBucket (404)', async () => {
    await expectS3Error(
      h.backend.listObjectsV2(h.ctx, { bucket: 'conf-no-such-bucket-here', maxKeys: 10 }),
      'NoSuchBucket',
    );
  });

  h.case(
    'list.versions-null',
    'ListObjectVersions on an unversioned bucket lists each object once as version "null", latest',
    async () => {
      const b = await filled('lver');
      const out = await h.backend.listObjectVersions(h.ctx, { bucket: b, maxKeys: 1000 });
      expect(out.versions.map((v) => v.key)).toEqual(KEYS);
      for (const v of out.versions) {
        expect(v.versionId).toBe('null');
        expect(v.isLatest).toBe(true);
      }
      expect(out.deleteMarkers).toEqual([]);
      const pre = await h.backend.listObjectVersions(h.ctx, {
        bucket: b,
        prefix: 'b/',
        delimiter: '/',
        maxKeys: 1000,
      });
      expect(pre.versions.map((v) => v.key)).toEqual(['b/1', 'b/2']);
      expect(pre.commonPrefixes).toEqual(['b/sub/']);
    },
  );
}
