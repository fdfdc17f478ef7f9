// Bucket configuration. Policy, CORS and website are the gateway's to answer and enforce: they
// live in the meta bucket (refused with NotImplemented without one). So do ownership controls when
// there is a meta bucket (the gateway enforces them; forwarded upstream without one). Versioning,
// tags and object-lock configuration shape how the upstream stores objects: forwarded.
import {
  DeleteBucketOwnershipControlsCommand,
  DeleteBucketTaggingCommand,
  GetBucketOwnershipControlsCommand,
  GetBucketTaggingCommand,
  GetBucketVersioningCommand,
  GetObjectLockConfigurationCommand,
  PutBucketOwnershipControlsCommand,
  PutBucketTaggingCommand,
  PutBucketVersioningCommand,
  PutObjectLockConfigurationCommand,
} from '@aws-sdk/client-s3';
import type { ObjectOwnership, RequestContext, S3ErrorCode } from '@vgwrdma/backend-contract';
import { S3Error } from '@vgwrdma/backend-contract';
import { compact } from '../compact.js';
import { tagsFromSdk, tagsToSdk } from '../convert.js';
import type { MetaKind } from '../meta-bucket.js';
import { call, checkBucket, type S3Op, type Upstream } from '../upstream.js';
import { bucketMustExist } from './object-reads.js';

/** The gateway-side configurations: meta kind and the error answered when none is stored. */
export const STORED_CONFIGS = {
  policy: { kind: 'policy', missing: 'NoSuchBucketPolicy' },
  cors: { kind: 'cors', missing: 'NoSuchCORSConfiguration' },
  website: { kind: 'website', missing: 'NoSuchWebsiteConfiguration' },
} as const satisfies Record<string, { kind: MetaKind; missing: S3ErrorCode }>;

export type StoredConfig = keyof typeof STORED_CONFIGS;

export async function getStored(
  up: Upstream,
  ctx: RequestContext,
  which: StoredConfig,
  bucket: string,
): Promise<string> {
  checkBucket(up, bucket);
  const { kind, missing } = STORED_CONFIGS[which];
  const text = await up.meta?.get(kind, bucket, ctx.signal);
  if (text !== undefined) return text;
  await bucketMustExist(up, ctx, bucket); // NoSuchBucket rather than "no configuration"
  throw new S3Error(missing);
}

export async function putStored(
  up: Upstream,
  ctx: RequestContext,
  which: StoredConfig,
  bucket: string,
  text: string,
): Promise<void> {
  checkBucket(up, bucket);
  if (!up.meta)
    throw S3Error.custom('NotImplemented', `Bucket ${which} needs a meta bucket (--meta-bucket).`);
  await bucketMustExist(up, ctx, bucket);
  await up.meta.put(STORED_CONFIGS[which].kind, bucket, text, ctx.signal);
}

export async function deleteStored(
  up: Upstream,
  ctx: RequestContext,
  which: StoredConfig,
  bucket: string,
): Promise<void> {
  checkBucket(up, bucket);
  await bucketMustExist(up, ctx, bucket);
  await up.meta?.delete(STORED_CONFIGS[which].kind, bucket, ctx.signal);
}

export const getBucketVersioning: S3Op<'getBucketVersioning'> = async (up, ctx, bucket) => {
  checkBucket(up, bucket);
  const out = await call(ctx, 'bucket', (o) =>
    up.client.send(new GetBucketVersioningCommand({ Bucket: bucket }), o),
  );
  return out.Status === 'Enabled' || out.Status === 'Suspended' ? out.Status : undefined;
};

export const putBucketVersioning: S3Op<'putBucketVersioning'> = async (up, ctx, bucket, status) => {
  checkBucket(up, bucket);
  await call(ctx, 'bucket', (o) =>
    up.client.send(
      new PutBucketVersioningCommand({ Bucket: bucket, VersioningConfiguration: { Status: status } }),
      o,
    ),
  );
};

export const getBucketOwnershipControls: S3Op<'getBucketOwnershipControls'> = async (up, ctx, bucket) => {
  checkBucket(up, bucket);
  if (up.meta) {
    const stored = await up.meta.get('ownership', bucket, ctx.signal);
    if (stored !== undefined && stored !== '') return stored as ObjectOwnership;
    await bucketMustExist(up, ctx, bucket);
    throw new S3Error('OwnershipControlsNotFoundError');
  }
  const out = await call(ctx, 'bucket', (o) =>
    up.client.send(new GetBucketOwnershipControlsCommand({ Bucket: bucket }), o),
  );
  const ownership = out.OwnershipControls?.Rules?.[0]?.ObjectOwnership;
  if (ownership === undefined) throw new S3Error('OwnershipControlsNotFoundError');
  return ownership as ObjectOwnership;
};

export const putBucketOwnershipControls: S3Op<'putBucketOwnershipControls'> = async (
  up,
  ctx,
  bucket,
  ownership,
) => {
  checkBucket(up, bucket);
  if (up.meta) {
    await bucketMustExist(up, ctx, bucket);
    await up.meta.put('ownership', bucket, ownership, ctx.signal);
    return;
  }
  await call(ctx, 'bucket', (o) =>
    up.client.send(
      new PutBucketOwnershipControlsCommand({
        Bucket: bucket,
        OwnershipControls: { Rules: [{ ObjectOwnership: ownership }] },
      }),
      o,
    ),
  );
};

export const deleteBucketOwnershipControls: S3Op<'deleteBucketOwnershipControls'> = async (
  up,
  ctx,
  bucket,
) => {
  checkBucket(up, bucket);
  if (up.meta) {
    await bucketMustExist(up, ctx, bucket);
    await up.meta.delete('ownership', bucket, ctx.signal);
    return;
  }
  await call(ctx, 'bucket', (o) =>
    up.client.send(new DeleteBucketOwnershipControlsCommand({ Bucket: bucket }), o),
  );
};

export const getBucketTagging: S3Op<'getBucketTagging'> = async (up, ctx, bucket) => {
  checkBucket(up, bucket);
  const out = await call(ctx, 'bucket', (o) =>
    up.client.send(new GetBucketTaggingCommand({ Bucket: bucket }), o),
  );
  return tagsFromSdk(out.TagSet);
};

export const putBucketTagging: S3Op<'putBucketTagging'> = async (up, ctx, bucket, tags) => {
  checkBucket(up, bucket);
  await call(ctx, 'bucket', (o) =>
    up.client.send(new PutBucketTaggingCommand({ Bucket: bucket, Tagging: { TagSet: tagsToSdk(tags) } }), o),
  );
};

export const deleteBucketTagging: S3Op<'deleteBucketTagging'> = async (up, ctx, bucket) => {
  checkBucket(up, bucket);
  await call(ctx, 'bucket', (o) => up.client.send(new DeleteBucketTaggingCommand({ Bucket: bucket }), o));
};

export const getObjectLockConfiguration: S3Op<'getObjectLockConfiguration'> = async (up, ctx, bucket) => {
  checkBucket(up, bucket);
  const out = await call(ctx, 'bucket', (o) =>
    up.client.send(new GetObjectLockConfigurationCommand({ Bucket: bucket }), o),
  );
  const config = out.ObjectLockConfiguration;
  if (!config) throw new S3Error('ObjectLockConfigurationNotFoundError');
  const d = config.Rule?.DefaultRetention;
  return compact({
    Enabled: config.ObjectLockEnabled === 'Enabled',
    DefaultRetention:
      d?.Mode === undefined ? undefined : compact({ Mode: d.Mode, Days: d.Days, Years: d.Years }),
  });
};

export const putObjectLockConfiguration: S3Op<'putObjectLockConfiguration'> = async (
  up,
  ctx,
  bucket,
  config,
) => {
  checkBucket(up, bucket);
  const d = config.DefaultRetention;
  await call(ctx, 'bucket', (o) =>
    up.client.send(
      new PutObjectLockConfigurationCommand({
        Bucket: bucket,
        ObjectLockConfiguration: {
          ObjectLockEnabled: config.Enabled ? 'Enabled' : undefined,
          Rule: d ? { DefaultRetention: { Mode: d.Mode, Days: d.Days, Years: d.Years } } : undefined,
        },
      }),
      o,
    ),
  );
};
