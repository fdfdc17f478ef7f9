// S3Backend behaviour beyond the conformance kit, once per upstream (a gateway process, Ceph RGW): the
// meta bucket (hidden, closed to clients, holding ACLs/policies/CORS/website per bucket, cleaned
// with the bucket), ownership per account (a bucket made upstream without an owner document is
// nobody's until an admin gives it one), forwarded bucket configuration, streamed GETs, and
// the behaviour without a meta bucket.
import { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import {
  CreateBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
} from '@aws-sdk/client-s3';
import type { RequestContext } from '@vgwrdma/backend-contract';
import { MetaBucketMissingError, metaKey, S3Backend, type S3BackendOptions } from '@vgwrdma/backend-s3';
import { errorCode } from '@vgwrdma/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMetaBucket, type UpstreamGateway } from './upstream-gateway.js';
import { suiteTitle, UPSTREAM_START_TIMEOUT_MS, UPSTREAMS, type Upstream } from './upstreams.js';

const ctxOf = (access: string, role: 'admin' | 'user' = 'user'): RequestContext => ({
  account: { access, role },
  requestId: 'proxy-test',
  signal: new AbortController().signal,
});
const alice = ctxOf('alice');
const bob = ctxOf('bob');
const admin = ctxOf('root', 'admin');
const acl = (owner: string) => ({ Owner: owner, Grantees: [] });

function proxySuite(up: Upstream): void {
  let META = '';
  let upstream: UpstreamGateway;
  let withMeta: S3Backend;
  let noMeta: S3Backend;

  // Bucket names carry the suite's tag: an RGW is shared by the run's test files.
  const tag = Math.random().toString(36).slice(2, 8);
  const n = (name: string): string => `${name}-${tag}`;

  function options(extra: Partial<S3BackendOptions> = {}): S3BackendOptions {
    return {
      endpoint: upstream.endpoint,
      region: upstream.region,
      access: upstream.access,
      secret: upstream.secret,
      usePathStyle: true,
      ...extra,
    };
  }

  beforeAll(async () => {
    upstream = await up.start();
    META = await createMetaBucket(upstream, 'proxy-meta');
    withMeta = await S3Backend.open(options({ metaBucket: META }));
    noMeta = await S3Backend.open(options());
  }, UPSTREAM_START_TIMEOUT_MS);

  afterAll(async () => {
    await withMeta?.shutdown();
    await noMeta?.shutdown();
    await upstream?.stop();
  });

  describe(`S3Backend with a meta bucket`, () => {
    it('refuses to open when the meta bucket does not exist upstream', async () => {
      await expect(S3Backend.open(options({ metaBucket: 'no-such-meta-bucket' }))).rejects.toBeInstanceOf(
        MetaBucketMissingError,
      );
    });

    it('hides the meta bucket from listings and closes it to clients', async () => {
      await withMeta.createBucket(alice, { bucket: n('alice-hidden'), owner: 'alice', acl: acl('alice') });
      const all = await withMeta.listBucketsAndOwners(admin);
      expect(all.map((b) => b.name)).not.toContain(META);
      expect(all.find((b) => b.name === n('alice-hidden'))?.owner).toBe('alice');
      expect((await withMeta.listBuckets(admin, {})).buckets.map((b) => b.name)).not.toContain(META);
      expect(await errorCode(withMeta.listObjectsV2(admin, { bucket: META, maxKeys: 10 }))).toBe(
        'AccessDenied',
      );
      expect(
        await errorCode(withMeta.getObject(admin, { bucket: META, key: metaKey('acl', n('alice-hidden')) })),
      ).toBe('AccessDenied');
      expect(await errorCode(withMeta.deleteBucket(admin, META))).toBe('AccessDenied');
      expect(
        await errorCode(withMeta.createBucket(admin, { bucket: META, owner: 'root', acl: acl('root') })),
      ).toBe('AccessDenied');
    });

    it('stores the ACL as versitygw does (vgw-meta-acl-<bucket>) and lists buckets per owner', async () => {
      await withMeta.createBucket(bob, { bucket: n('bob-own'), owner: 'bob', acl: acl('bob') });
      const stored = await upstream.client.send(
        new HeadObjectCommand({ Bucket: META, Key: `vgw-meta-acl-${n('bob-own')}` }),
      );
      expect(stored.ContentLength).toBeGreaterThan(0);
      expect((await withMeta.getBucketAcl(bob, n('bob-own'))).Owner).toBe('bob');
      const bobs = (await withMeta.listBuckets(bob, { owner: 'bob' })).buckets.map((b) => b.name);
      expect(bobs).toContain(n('bob-own'));
      expect(bobs).not.toContain(n('alice-hidden'));
      expect(
        await errorCode(
          withMeta.createBucket(alice, { bucket: n('bob-own'), owner: 'alice', acl: acl('alice') }),
        ),
      ).toBe('BucketAlreadyExists');
      await withMeta.changeBucketOwner(admin, n('bob-own'), 'alice');
      expect((await withMeta.getBucketAcl(admin, n('bob-own'))).Owner).toBe('alice');
      expect((await withMeta.listBuckets(alice, { owner: 'alice' })).buckets.map((b) => b.name)).toContain(
        n('bob-own'),
      );
    });

    it('refuses CreateBucket on a bucket created upstream without an owner document; an admin owner change gives it one', async () => {
      // Made directly upstream, as an operator (or a tool with the upstream keys) would.
      const legacy = n('upstream-made');
      await upstream.client.send(new CreateBucketCommand({ Bucket: legacy }));
      await upstream.client.send(new PutObjectCommand({ Bucket: legacy, Key: 'data', Body: 'upstream' }));
      // The attack: on the old code this was a 200 and Alice's ACL went into the meta bucket.
      expect(
        await errorCode(withMeta.createBucket(alice, { bucket: legacy, owner: 'alice', acl: acl('alice') })),
      ).toBe('BucketAlreadyExists');
      expect((await withMeta.getBucketAcl(admin, legacy)).Owner).toBe('');
      expect(
        (await withMeta.listBucketsAndOwners(admin)).find((b) => b.name === legacy)?.owner,
      ).toBeUndefined();
      expect(
        (await withMeta.listBuckets(alice, { owner: 'alice' })).buckets.map((b) => b.name),
      ).not.toContain(legacy);
      await withMeta.changeBucketOwner(admin, legacy, 'alice');
      expect((await withMeta.getBucketAcl(admin, legacy)).Owner).toBe('alice');
      expect(
        await errorCode(withMeta.createBucket(alice, { bucket: legacy, owner: 'alice', acl: acl('alice') })),
      ).toBe('BucketAlreadyOwnedByYou');
      expect(
        await errorCode(withMeta.createBucket(bob, { bucket: legacy, owner: 'bob', acl: acl('bob') })),
      ).toBe('BucketAlreadyExists');
      // A bucket nobody made is still created as before (positive control).
      await withMeta.createBucket(bob, { bucket: n('bob-new'), owner: 'bob', acl: acl('bob') });
      expect((await withMeta.getBucketAcl(bob, n('bob-new'))).Owner).toBe('bob');
    });

    it('pages ListBuckets by max-buckets and prefix (RGW 16.2 ignores both and answers every bucket)', async () => {
      const prefix = `pages-${tag}-`;
      const names = ['c', 'a', 'b'].map((s) => `${prefix}${s}`);
      for (const bucket of names)
        await withMeta.createBucket(alice, { bucket, owner: 'alice', acl: acl('alice') });
      try {
        const seen: string[][] = [];
        let token: string | undefined;
        do {
          const page = await withMeta.listBuckets(admin, {
            prefix,
            maxBuckets: 1,
            ...(token === undefined ? {} : { continuationToken: token }),
          });
          seen.push(page.buckets.map((b) => b.name));
          token = page.continuationToken;
        } while (token !== undefined && seen.length < 5);
        expect(seen).toEqual([[`${prefix}a`], [`${prefix}b`], [`${prefix}c`]]);
        // The readiness probe's question: one bucket, whatever the upstream holds.
        expect((await withMeta.listBuckets(admin, { maxBuckets: 1 })).buckets).toHaveLength(1);
      } finally {
        for (const bucket of names) await withMeta.deleteBucket(alice, bucket);
      }
    });

    it('keeps policy, CORS and website in the meta bucket; missing ones answer their own codes', async () => {
      const b = n('cfg-bucket');
      await withMeta.createBucket(alice, { bucket: b, owner: 'alice', acl: acl('alice') });
      expect(await errorCode(withMeta.getBucketPolicy(alice, b))).toBe('NoSuchBucketPolicy');
      expect(await errorCode(withMeta.getBucketCors(alice, b))).toBe('NoSuchCORSConfiguration');
      expect(await errorCode(withMeta.getBucketWebsite(alice, b))).toBe('NoSuchWebsiteConfiguration');
      const policy = JSON.stringify({ Version: '2012-10-17', Statement: [] });
      const cors =
        '<CORSConfiguration><CORSRule><AllowedMethod>GET</AllowedMethod></CORSRule></CORSConfiguration>';
      await withMeta.putBucketPolicy(alice, b, policy);
      await withMeta.putBucketCors(alice, b, cors);
      expect(await withMeta.getBucketPolicy(alice, b)).toBe(policy);
      expect(await withMeta.getBucketCors(alice, b)).toBe(cors);
      await withMeta.deleteBucketCors(alice, b);
      expect(await errorCode(withMeta.getBucketCors(alice, b))).toBe('NoSuchCORSConfiguration');
      expect(await errorCode(withMeta.getBucketPolicy(alice, n('no-such-bucket-here')))).toBe('NoSuchBucket');
      expect(await errorCode(withMeta.putBucketPolicy(alice, n('no-such-bucket-here'), policy))).toBe(
        'NoSuchBucket',
      );

      // Deleting the bucket removes its configuration: a new bucket of that name starts clean.
      await withMeta.deleteBucket(alice, b);
      const left = await upstream.client.send(
        new ListObjectsV2Command({ Bucket: META, Prefix: 'vgw-meta-' }),
      );
      expect((left.Contents ?? []).map((o) => o.Key).filter((k) => k?.endsWith(`-${b}`))).toEqual([]);
      await withMeta.createBucket(bob, { bucket: b, owner: 'bob', acl: acl('bob') });
      expect(await errorCode(withMeta.getBucketPolicy(bob, b))).toBe('NoSuchBucketPolicy');
    });

    it('forwards bucket tags to the upstream', async () => {
      const b = n('fwd-config');
      await withMeta.createBucket(alice, { bucket: b, owner: 'alice', acl: acl('alice') });
      await withMeta.putBucketTagging(alice, b, { team: 'storage', tier: 'hot' });
      expect(await withMeta.getBucketTagging(alice, b)).toEqual({ team: 'storage', tier: 'hot' });
      await withMeta.deleteBucketTagging(alice, b);
      expect(await errorCode(withMeta.getBucketTagging(alice, b))).toBe('NoSuchTagSet');
    });

    it('hands GET bodies on as the upstream response stream (nothing buffered)', async () => {
      const b = n('stream-get');
      await withMeta.createBucket(alice, { bucket: b, owner: 'alice', acl: acl('alice') });
      const data = Buffer.alloc(3 * 1024 * 1024, 7);
      await withMeta.putObject(alice, {
        bucket: b,
        key: 'k',
        body: Readable.from([data]),
        contentLength: data.length,
      });
      const got = await withMeta.getObject(alice, { bucket: b, key: 'k' });
      expect(got.body).toBeInstanceOf(IncomingMessage);
      let bytes = 0;
      for await (const chunk of got.body) bytes += (chunk as Buffer).length;
      expect(bytes).toBe(data.length);
    });

    it('answers NoSuchBucket for a HEAD of a key in a missing bucket (a bare 404 disambiguated)', async () => {
      expect(
        await errorCode(withMeta.headObject(alice, { bucket: n('no-such-bucket-here'), key: 'k' })),
      ).toBe('NoSuchBucket');
    });

    it('checks an empty upload before sending it: a wrong checksum stores nothing', async () => {
      const empty = () => Readable.from([]);
      const wrong = { algorithm: 'CRC32' as const, expected: () => 'AQIDBA==' }; // CRC32 of nothing is AAAAAA==
      expect(
        await errorCode(
          withMeta.putObject(alice, {
            bucket: n('stream-get'),
            key: 'empty',
            body: empty(),
            contentLength: 0,
            checksum: wrong,
          }),
        ),
      ).toBe('BadDigest');
      expect(await errorCode(withMeta.headObject(alice, { bucket: n('stream-get'), key: 'empty' }))).toBe(
        'NoSuchKey',
      );
      const ok = await withMeta.putObject(alice, {
        bucket: n('stream-get'),
        key: 'empty',
        body: empty(),
        contentLength: 0,
      });
      expect(ok.etag).toBe('"d41d8cd98f00b204e9800998ecf8427e"');
    });

    it('stores an upload whose length is unknown (spooled, sent with its length)', async () => {
      const out = await withMeta.putObject(alice, {
        bucket: n('stream-get'),
        key: 'nolen',
        body: Readable.from([Buffer.from('x'), Buffer.from('yz')]),
      });
      expect(out).toMatchObject({ etag: '"d16fb36f0911f878998c136191af705e"', size: 3 });
      const head = await upstream.client.send(
        new HeadObjectCommand({ Bucket: n('stream-get'), Key: 'nolen' }),
      );
      expect(head.ContentLength).toBe(3);
    });
  });

  describe('S3Backend without a meta bucket', () => {
    it('forwards bucket creation; ownership is not tracked (no ACLs, every bucket listed)', async () => {
      await noMeta.createBucket(alice, { bucket: n('plain-one'), owner: 'alice', acl: acl('alice') });
      // The upstream would see one account re-creating its own bucket (200 in us-east-1); with no
      // owner recorded anywhere the bucket is nobody's, so a second create is refused.
      expect(
        await errorCode(noMeta.createBucket(bob, { bucket: n('plain-one'), owner: 'bob', acl: acl('bob') })),
      ).toBe('BucketAlreadyExists');
      expect(await errorCode(noMeta.getBucketAcl(bob, n('plain-one')))).toBe('NotImplemented');
      expect((await noMeta.listBuckets(bob, { owner: 'bob' })).buckets.map((b) => b.name)).toContain(
        n('plain-one'),
      );
    });

    it('refuses gateway-side configuration it has nowhere to keep', async () => {
      expect(await errorCode(noMeta.putBucketPolicy(alice, n('plain-one'), '{}'))).toBe('NotImplemented');
      expect(await errorCode(noMeta.putBucketCors(alice, n('plain-one'), '<CORSConfiguration/>'))).toBe(
        'NotImplemented',
      );
      expect(await errorCode(noMeta.putBucketAcl(alice, n('plain-one'), acl('alice')))).toBe(
        'NotImplemented',
      );
      expect(await errorCode(noMeta.getBucketPolicy(alice, n('plain-one')))).toBe('NoSuchBucketPolicy');
    });
  });
}

for (const up of UPSTREAMS) {
  describe.skipIf(up.unavailable !== undefined)(suiteTitle(up), () => proxySuite(up));
}
