// Conformance cases: bucket lifecycle (CreateBucket, HeadBucket, ListBuckets, DeleteBucket).
import { expect } from 'vitest';
import { defaultAcl, expectS3Error, type Harness } from './harness.js';

export function bucketCases(h: Harness): void {
  h.case(
    'buckets.create-head-list',
    'CreateBucket makes a bucket HeadBucket finds and ListBuckets lists for its owner',
    async () => {
      const b = await h.bucket('chl');
      await h.backend.headBucket(h.ctx, b);
      const listed = await h.backend.listBuckets(h.ctx, { owner: h.ctx.account.access });
      const mine = listed.buckets.find((x) => x.name === b);
      expect(mine, 'the new bucket is listed').toBeDefined();
      expect(mine?.creationDate).toBeInstanceOf(Date);
    },
  );

  h.case('buckets.list-sorted', 'ListBuckets answers buckets in name order', async () => {
    await h.bucket('sort-b');
    await h.bucket('sort-a');
    const names = (await h.backend.listBuckets(h.ctx, { owner: h.ctx.account.access })).buckets.map(
      (x) => x.name,
    );
    expect(names).toEqual([...names].sort());
  });

  h.case(
    'buckets.already-owned',
    'CreateBucket on a bucket the caller owns answers BucketAlreadyOwnedByYou (409)',
    async () => {
      const b = await h.bucket('own');
      await expectS3Error(
        h.backend.createBucket(h.ctx, { bucket: b, owner: h.ctx.account.access, acl: defaultAcl(h.ctx) }),
        'BucketAlreadyOwnedByYou',
      );
    },
  );

  h.case(
    'buckets.already-exists',
    'CreateBucket on a bucket another account owns answers BucketAlreadyExists (409)',
    async () => {
      const b = await h.bucket('other');
      await expectS3Error(
        h.backend.createBucket(h.ctx, {
          bucket: b,
          owner: 'someone-else',
          acl: { Owner: 'someone-else', Grantees: [] },
        }),
        'BucketAlreadyExists',
      );
    },
  );

  h.case('buckets.head-missing', 'HeadBucket on a missing bucket answers NoSuchBucket (404)', async () => {
    await expectS3Error(h.backend.headBucket(h.ctx, 'conf-no-such-bucket-here'), 'NoSuchBucket');
  });

  h.case(
    'buckets.delete',
    'DeleteBucket removes an empty bucket: HeadBucket then answers NoSuchBucket',
    async () => {
      const b = await h.bucket('del');
      await h.backend.deleteBucket(h.ctx, b);
      await expectS3Error(h.backend.headBucket(h.ctx, b), 'NoSuchBucket');
      const names = (await h.backend.listBuckets(h.ctx, { owner: h.ctx.account.access })).buckets.map(
        (x) => x.name,
      );
      expect(names).not.toContain(b);
    },
  );

  h.case(
    'buckets.delete-missing',
    'DeleteBucket on a missing bucket answers NoSuchBucket (404)',
    async () => {
      await expectS3Error(h.backend.deleteBucket(h.ctx, 'conf-no-such-bucket-here'), 'NoSuchBucket');
    },
  );

  h.case(
    'buckets.delete-not-empty',
    'DeleteBucket on a bucket holding an object answers BucketNotEmpty (409) and keeps it',
    async () => {
      const b = await h.bucket('full');
      await h.put(b, 'k', 'x');
      await expectS3Error(h.backend.deleteBucket(h.ctx, b), 'BucketNotEmpty');
      await h.backend.headBucket(h.ctx, b);
      await h.backend.headObject(h.ctx, { bucket: b, key: 'k' });
    },
  );

  h.case(
    'buckets.object-in-missing-bucket',
    'PutObject and GetObject in a missing bucket answer NoSuchBucket (404)',
    async () => {
      await expectS3Error(h.put('conf-no-such-bucket-here', 'k', 'x'), 'NoSuchBucket');
      await expectS3Error(
        h.backend.getObject(h.ctx, { bucket: 'conf-no-such-bucket-here', key: 'k' }),
        'NoSuchBucket',
      );
    },
  );
}
