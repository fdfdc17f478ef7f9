// Bucket lifecycle and ownership. The upstream holds the buckets; with a meta bucket, the gateway
// keeps each bucket's ACL (owner and grants) there, so ownership answers (BucketAlreadyOwnedByYou
// vs BucketAlreadyExists, ListBuckets per owner, admin owner changes) work although every request
// reaches the upstream with the same credentials. Without one, ownership is not tracked: ListBuckets
// lists every upstream bucket, and bucket ACLs answer NotImplemented (the gateway's authorization
// then leaves buckets to admin accounts). A bucket without a recorded owner (created upstream
// directly) is nobody's: CreateBucket answers BucketAlreadyExists, and only an admin's owner
// change (or the app's --adopt-ownerless-buckets) gives it one.
import {
  type BucketLocationConstraint,
  CreateBucketCommand,
  DeleteBucketCommand,
  HeadBucketCommand,
  ListBucketsCommand,
  type Bucket as SdkBucket,
} from '@aws-sdk/client-s3';
import type { BucketAcl, BucketSummary, ListBucketsInput, RequestContext } from '@vgwrdma/backend-contract';
import { S3Error } from '@vgwrdma/backend-contract';
import { compact } from '../compact.js';
import type { MetaKind } from '../meta-bucket.js';
import { DEFAULT_REGION } from '../options.js';
import { call, checkBucket, type S3Op, type Upstream } from '../upstream.js';
import { pageBuckets, upstreamToken } from './bucket-pages.js';
import { bucketMustExist } from './object-reads.js';

const ALL_META_KINDS: readonly MetaKind[] = ['acl', 'policy', 'cors', 'website', 'ownership'];

/** The stored ACL; undefined when the bucket has none (created outside this gateway). */
export async function readAcl(
  up: Upstream,
  ctx: RequestContext,
  bucket: string,
): Promise<BucketAcl | undefined> {
  const text = await up.meta?.get('acl', bucket, ctx.signal);
  if (text === undefined || text === '') return undefined;
  try {
    return JSON.parse(text) as BucketAcl;
  } catch (err) {
    throw new S3Error('InternalError', undefined, { cause: err });
  }
}

export const getBucketAcl: S3Op<'getBucketAcl'> = async (up, ctx, bucket) => {
  checkBucket(up, bucket);
  if (!up.meta) throw S3Error.custom('NotImplemented', 'Bucket ACLs need a meta bucket (--meta-bucket).');
  const acl = await readAcl(up, ctx, bucket);
  if (acl) return acl;
  // A bucket created outside this gateway has no recorded owner: owner-less, as versitygw answers.
  await bucketMustExist(up, ctx, bucket);
  return { Owner: '', Grantees: [] };
};

export const putBucketAcl: S3Op<'putBucketAcl'> = async (up, ctx, bucket, acl) => {
  checkBucket(up, bucket);
  if (!up.meta) throw S3Error.custom('NotImplemented', 'Bucket ACLs need a meta bucket (--meta-bucket).');
  await bucketMustExist(up, ctx, bucket);
  await up.meta.put('acl', bucket, JSON.stringify(acl), ctx.signal);
};

async function listUpstreamBuckets(up: Upstream, ctx: RequestContext, input: ListBucketsInput) {
  const out = await call(ctx, 'bucket', (o) =>
    up.client.send(
      new ListBucketsCommand({
        Prefix: input.prefix,
        ContinuationToken: upstreamToken(input),
        MaxBuckets: input.maxBuckets,
      }),
      o,
    ),
  );
  const answered = (out.Buckets ?? []).filter((b): b is SdkBucket & { Name: string } => {
    return b.Name !== undefined && b.Name !== up.meta?.bucket;
  });
  // Before any owner is read: an upstream that ignores max-buckets answers every bucket it holds.
  return pageBuckets(answered, out.ContinuationToken, input);
}

/** Each bucket with its owner from the meta bucket (undefined without one, or without an ACL). */
async function withOwners(up: Upstream, ctx: RequestContext, buckets: (SdkBucket & { Name: string })[]) {
  return Promise.all(
    buckets.map(async (b): Promise<BucketSummary> => {
      const owner = up.meta ? (await readAcl(up, ctx, b.Name))?.Owner : undefined;
      return compact({ name: b.Name, creationDate: b.CreationDate ?? new Date(0), owner });
    }),
  );
}

export const listBuckets: S3Op<'listBuckets'> = async (up, ctx, input) => {
  const page = await listUpstreamBuckets(up, ctx, input);
  let buckets = await withOwners(up, ctx, page.buckets);
  if (input.owner !== undefined && up.meta) buckets = buckets.filter((b) => b.owner === input.owner);
  buckets.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return compact({ buckets, continuationToken: page.continuationToken });
};

export const listBucketsAndOwners: S3Op<'listBucketsAndOwners'> = async (up, ctx) => {
  const all: BucketSummary[] = [];
  let token: string | undefined;
  do {
    const page = await listUpstreamBuckets(up, ctx, token === undefined ? {} : { continuationToken: token });
    all.push(...(await withOwners(up, ctx, page.buckets)));
    token = page.continuationToken;
  } while (token);
  return all;
};

export const createBucket: S3Op<'createBucket'> = async (up, ctx, input) => {
  checkBucket(up, input.bucket);
  const existing = await readAcl(up, ctx, input.bucket);
  if (existing) {
    const owned = existing.Owner !== '' && existing.Owner === input.owner;
    throw new S3Error(owned ? 'BucketAlreadyOwnedByYou' : 'BucketAlreadyExists');
  }
  // No recorded owner. A bucket that exists upstream all the same (created there directly, or
  // before the meta bucket) is nobody's: the upstream would answer 200 or BucketAlreadyOwnedByYou
  // (the gateway's credentials own it), and writing the caller's ACL would hand it over.
  if (await upstreamHasBucket(up, ctx, input.bucket)) throw new S3Error('BucketAlreadyExists');
  const region = up.options.region ?? DEFAULT_REGION;
  await call(ctx, 'bucket', (o) =>
    up.client.send(
      new CreateBucketCommand({
        Bucket: input.bucket,
        ObjectLockEnabledForBucket: input.objectLockEnabled,
        ObjectOwnership: input.ownership,
        // us-east-1 is the one region that takes no LocationConstraint.
        CreateBucketConfiguration:
          region === DEFAULT_REGION ? undefined : { LocationConstraint: region as BucketLocationConstraint },
      }),
      o,
    ),
  );
  if (!up.meta) return;
  try {
    await up.meta.put('acl', input.bucket, JSON.stringify(input.acl), ctx.signal);
    if (input.ownership) await up.meta.put('ownership', input.bucket, input.ownership, ctx.signal);
  } catch (err) {
    // An ownerless bucket would be anyone's: take the new bucket back.
    await call(ctx, 'bucket', (o) =>
      up.client.send(new DeleteBucketCommand({ Bucket: input.bucket }), o),
    ).catch(() => undefined);
    throw err;
  }
};

/** Whether the upstream holds the bucket (a 403 means another upstream account does). */
async function upstreamHasBucket(up: Upstream, ctx: RequestContext, bucket: string): Promise<boolean> {
  try {
    await bucketMustExist(up, ctx, bucket);
    return true;
  } catch (err) {
    if (err instanceof S3Error && err.code === 'NoSuchBucket') return false;
    if (err instanceof S3Error && err.code === 'AccessDenied') return true;
    throw err;
  }
}

export const headBucket: S3Op<'headBucket'> = async (up, ctx, bucket) => {
  checkBucket(up, bucket);
  const out = await call(ctx, 'bucket', (o) => up.client.send(new HeadBucketCommand({ Bucket: bucket }), o));
  return compact({ region: out.BucketRegion ?? up.options.region ?? DEFAULT_REGION });
};

export const deleteBucket: S3Op<'deleteBucket'> = async (up, ctx, bucket) => {
  checkBucket(up, bucket);
  await call(ctx, 'bucket', (o) => up.client.send(new DeleteBucketCommand({ Bucket: bucket }), o));
  // The bucket is gone: so is its gateway-side configuration (a new bucket of that name starts clean).
  const meta = up.meta;
  if (meta) await Promise.allSettled(ALL_META_KINDS.map((kind) => meta.delete(kind, bucket, ctx.signal)));
};

export const changeBucketOwner: S3Op<'changeBucketOwner'> = async (up, ctx, bucket, newOwner) => {
  checkBucket(up, bucket);
  if (!up.meta) throw S3Error.custom('NotImplemented', 'Bucket owners need a meta bucket (--meta-bucket).');
  const stored = await readAcl(up, ctx, bucket);
  if (!stored) await bucketMustExist(up, ctx, bucket);
  const acl = stored ?? { Owner: '', Grantees: [] };
  const moved: BucketAcl = {
    Owner: newOwner,
    Grantees: acl.Grantees.map((g) => (g.Access === acl.Owner ? { ...g, Access: newOwner } : g)),
  };
  await up.meta.put('acl', bucket, JSON.stringify(moved), ctx.signal);
};
