import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { ListObjectsOutput } from '@vgwrdma/backend-contract';
import { describe, expect, it } from 'vitest';
import { compareKeys } from '../src/listing/walk.js';
import { acl, body, bucketEach, codeOf, ctx, type Fixture, OWNER, put, withBucket } from './helpers.js';

let f: Fixture;
let bucket: string;
bucketEach((fx, b) => {
  f = fx;
  bucket = b;
});

const byteSorted = (keys: string[]) => [...keys].sort(compareKeys);

async function pageAllV2(opts: { prefix?: string; delimiter?: string; maxKeys: number }) {
  const keys: string[] = [];
  const prefixes: string[] = [];
  let token: string | undefined;
  let pages = 0;
  for (;;) {
    const r: ListObjectsOutput = await f.backend.listObjectsV2(ctx(), {
      bucket,
      ...opts,
      ...(token ? { continuationToken: token } : {}),
    });
    pages++;
    keys.push(...r.contents.map((o) => o.key));
    prefixes.push(...r.commonPrefixes);
    expect(r.contents.length + r.commonPrefixes.length).toBeLessThanOrEqual(opts.maxKeys);
    if (!r.isTruncated) break;
    token = r.nextContinuationToken;
    expect(token).toBeDefined();
  }
  return { keys, prefixes, pages };
}

describe('listing', () => {
  it('pages over 2,500 keys in byte order, each exactly once', async () => {
    const keys: string[] = [];
    for (let d = 0; d < 25; d++)
      for (let i = 0; i < 100; i++) keys.push(`d${String(d).padStart(2, '0')}/k${i}`);
    for (let i = 0; i < keys.length; i += 100)
      await Promise.all(keys.slice(i, i + 100).map((k) => put(f, bucket, k, 'x')));
    const { keys: listed, pages } = await pageAllV2({ maxKeys: 1000 });
    expect(pages).toBe(3);
    expect(listed).toEqual(byteSorted(keys));
    const v1: string[] = [];
    let marker: string | undefined;
    for (;;) {
      const r = await f.backend.listObjects(ctx(), { bucket, maxKeys: 700, ...(marker ? { marker } : {}) });
      v1.push(...r.contents.map((o) => o.key));
      if (!r.isTruncated) break;
      marker = r.nextMarker;
    }
    expect(v1).toEqual(byteSorted(keys));
    const delim = await pageAllV2({ delimiter: '/', maxKeys: 7 });
    expect(delim.prefixes).toEqual(Array.from({ length: 25 }, (_, d) => `d${String(d).padStart(2, '0')}/`));
    expect(delim.keys).toEqual([]);
  }, 120_000);

  it('orders by UTF-8 bytes, not UTF-16 code units, across directory boundaries', async () => {
    // U+FFFD sorts before U+1F600 in UTF-8 but after it in UTF-16; "a-b" < "a/b" < "a0" although
    // "a/b" is a file inside directory "a".
    const keys = [
      'a/b',
      'a-b',
      'a0',
      '\u{1F600}',
      '\uFFFD',
      'z z',
      'per%cent',
      'plus+sign',
      'ünï/cödé',
      'new\nline',
    ];
    for (const k of keys) await put(f, bucket, k, 'v');
    const r = await f.backend.listObjectsV2(ctx(), { bucket, maxKeys: 100 });
    const listed = r.contents.map((o) => o.key);
    expect(listed).toEqual(byteSorted(keys));
    expect(listed.indexOf('\uFFFD')).toBeLessThan(listed.indexOf('\u{1F600}'));
    expect(listed.slice(0, 3)).toEqual(['a-b', 'a/b', 'a0']);
    // Paging one key at a time crosses the same boundaries.
    const paged = await pageAllV2({ maxKeys: 1 });
    expect(paged.keys).toEqual(listed);
  });

  it('handles a delimiter other than "/" and a prefix ending mid-name', async () => {
    for (const k of ['log-2024-01', 'log-2024-02', 'log-2025-01', 'logs/x', 'other']) await put(f, bucket, k);
    const r = await f.backend.listObjectsV2(ctx(), { bucket, maxKeys: 100, prefix: 'log-', delimiter: '-' });
    expect(r.commonPrefixes).toEqual(['log-2024-', 'log-2025-']);
    expect(r.contents).toEqual([]);
    const mid = await f.backend.listObjectsV2(ctx(), { bucket, maxKeys: 100, prefix: 'lo', delimiter: '/' });
    expect(mid.commonPrefixes).toEqual(['logs/']);
    expect(mid.contents.map((o) => o.key)).toEqual(['log-2024-01', 'log-2024-02', 'log-2025-01']);
  });

  it('lists folder objects, skips plain and empty directories and .sgwtmp', async () => {
    await f.backend.putObject(ctx(), { bucket, key: 'folder/', body: body('') });
    await put(f, bucket, 'folder/inner');
    await put(f, bucket, 'parent/child');
    await mkdir(join(f.root, bucket, 'empty', 'deeper'), { recursive: true });
    const all = await f.backend.listObjectsV2(ctx(), { bucket, maxKeys: 100 });
    expect(all.contents.map((o) => o.key)).toEqual(['folder/', 'folder/inner', 'parent/child']);
    const top = await f.backend.listObjectsV2(ctx(), { bucket, maxKeys: 100, delimiter: '/' });
    expect(top.commonPrefixes).toEqual(['folder/', 'parent/']);
    const inFolder = await f.backend.listObjectsV2(ctx(), {
      bucket,
      maxKeys: 100,
      delimiter: '/',
      prefix: 'folder/',
    });
    expect(inFolder.contents.map((o) => [o.key, o.size])).toEqual([
      ['folder/', 0],
      ['folder/inner', 12],
    ]);
  });

  it('maxKeys 0, startAfter, fetchOwner, and a bad continuation token', async () => {
    for (const k of ['a', 'b', 'c']) await put(f, bucket, k);
    const zero = await f.backend.listObjectsV2(ctx(), { bucket, maxKeys: 0 });
    expect(zero.contents).toEqual([]);
    expect(zero.isTruncated).toBe(false);
    const after = await f.backend.listObjectsV2(ctx(), {
      bucket,
      maxKeys: 10,
      startAfter: 'a',
      fetchOwner: true,
    });
    expect(after.contents.map((o) => o.key)).toEqual(['b', 'c']);
    expect(after.contents[0]?.owner?.id).toBe('AKIATESTOWNER');
    expect(
      await codeOf(f.backend.listObjectsV2(ctx(), { bucket, maxKeys: 10, continuationToken: '!!' })),
    ).toBe('InvalidArgument');
  });

  it('ListObjectVersions pages by key marker, every object its null version', async () => {
    for (const k of ['v1', 'v2', 'v3']) await put(f, bucket, k);
    const p1 = await f.backend.listObjectVersions(ctx(), { bucket, maxKeys: 2 });
    expect(p1.versions.map((v) => [v.key, v.versionId, v.isLatest])).toEqual([
      ['v1', 'null', true],
      ['v2', 'null', true],
    ]);
    expect(p1.isTruncated).toBe(true);
    const p2 = await f.backend.listObjectVersions(ctx(), {
      bucket,
      maxKeys: 2,
      keyMarker: p1.nextKeyMarker as string,
    });
    expect(p2.versions.map((v) => v.key)).toEqual(['v3']);
    expect(p2.isTruncated).toBe(false);
  });
});

describe('buckets', () => {
  it('list sorted, filter by owner, change owner, refuse non-empty delete', async () => {
    await f.backend.createBucket(ctx(), {
      bucket: 'zeta',
      owner: 'other',
      acl: { Owner: 'other', Grantees: [] },
    });
    await withBucket(f, 'alpha');
    const mine = await f.backend.listBuckets(ctx(), { owner: 'AKIATESTOWNER' });
    expect(mine.buckets.map((b) => b.name)).toEqual(['alpha', 'bucket']);
    const all = await f.backend.listBucketsAndOwners(ctx());
    expect(all.map((b) => [b.name, b.owner])).toEqual([
      ['alpha', 'AKIATESTOWNER'],
      ['bucket', 'AKIATESTOWNER'],
      ['zeta', 'other'],
    ]);
    await f.backend.changeBucketOwner(ctx(), 'zeta', 'AKIATESTOWNER');
    expect((await f.backend.getBucketAcl(ctx(), 'zeta')).Owner).toBe('AKIATESTOWNER');
    expect(
      await codeOf(
        f.backend.createBucket(ctx(), { bucket: 'zeta', owner: 'x', acl: { Owner: 'x', Grantees: [] } }),
      ),
    ).toBe('BucketAlreadyExists');
    expect(
      await codeOf(
        f.backend.createBucket(ctx(), { bucket: 'Bad_Name', owner: 'x', acl: { Owner: 'x', Grantees: [] } }),
      ),
    ).toBe('InvalidBucketName');
    await put(f, 'alpha', 'k');
    expect(await codeOf(f.backend.deleteBucket(ctx(), 'alpha'))).toBe('BucketNotEmpty');
    await f.backend.deleteObject(ctx(), { bucket: 'alpha', key: 'k' });
    await f.backend.createMultipartUpload(ctx(), { bucket: 'alpha', key: 'open-upload' });
    await f.backend.deleteBucket(ctx(), 'alpha');
    expect(await codeOf(f.backend.headBucket(ctx(), 'alpha'))).toBe('NoSuchBucket');
  });

  it('stores configurations and answers the right NoSuch* errors', async () => {
    const cases = [
      [
        'getBucketPolicy',
        'putBucketPolicy',
        'deleteBucketPolicy',
        '{"Version":"2012-10-17"}',
        'NoSuchBucketPolicy',
      ],
      [
        'getBucketCors',
        'putBucketCors',
        'deleteBucketCors',
        '<CORSConfiguration/>',
        'NoSuchCORSConfiguration',
      ],
      [
        'getBucketWebsite',
        'putBucketWebsite',
        'deleteBucketWebsite',
        '<WebsiteConfiguration/>',
        'NoSuchWebsiteConfiguration',
      ],
      [
        'getBucketOwnershipControls',
        'putBucketOwnershipControls',
        'deleteBucketOwnershipControls',
        'BucketOwnerEnforced',
        'OwnershipControlsNotFoundError',
      ],
    ] as const;
    for (const [get, putM, del, value, missing] of cases) {
      const b = f.backend as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>;
      expect(await codeOf(b[get]?.(ctx(), bucket) as Promise<unknown>)).toBe(missing);
      await b[putM]?.(ctx(), bucket, value);
      expect(await b[get]?.(ctx(), bucket)).toBe(value);
      await b[del]?.(ctx(), bucket);
      expect(await codeOf(b[get]?.(ctx(), bucket) as Promise<unknown>)).toBe(missing);
    }
    expect(await codeOf(f.backend.getBucketTagging(ctx(), bucket))).toBe('NoSuchTagSet');
    await f.backend.putBucketTagging(ctx(), bucket, { a: 'b' });
    expect(await f.backend.getBucketTagging(ctx(), bucket)).toEqual({ a: 'b' });
    // Without a versioning directory versioning is not configured (versitygw's answer).
    expect(await codeOf(f.backend.getBucketVersioning(ctx(), bucket))).toBe('VersioningNotConfigured');
    expect(await codeOf(f.backend.putBucketVersioning(ctx(), bucket, 'Enabled'))).toBe(
      'VersioningNotConfigured',
    );
    expect(await codeOf(f.backend.getObjectLockConfiguration(ctx(), bucket))).toBe(
      'ObjectLockConfigurationNotFoundError',
    );
    // Lock needs versioning Enabled, or a bucket created with lock.
    expect(await codeOf(f.backend.putObjectLockConfiguration(ctx(), bucket, { Enabled: true }))).toBe(
      'InvalidBucketState',
    );
    await f.backend.createBucket(ctx(), {
      bucket: 'locked-bucket',
      owner: OWNER,
      acl: acl(),
      objectLockEnabled: true,
    });
    await f.backend.putObjectLockConfiguration(ctx(), 'locked-bucket', { Enabled: true });
    expect((await f.backend.getObjectLockConfiguration(ctx(), 'locked-bucket')).Enabled).toBe(true);
    expect(await codeOf(f.backend.getBucketPolicy(ctx(), 'missing-bucket'))).toBe('NoSuchBucket');
  });
});
