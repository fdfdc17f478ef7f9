// Bucket configurations kept as attributes of the bucket directory, one table entry each:
// the attribute, how a value is encoded, and the error answered when it is absent. The gateway
// parses and validates the documents; this layer stores them as sent.
import {
  type BucketLockConfig,
  type ObjectOwnership,
  type PublicAccessBlock,
  S3Error,
  type S3ErrorCode,
  type TagSet,
  type VersioningStatus,
} from '@vgwrdma/backend-contract';
import type { PosixEnv } from '../env.js';
import { requireBucket } from '../fs/errors.js';
import { assertBucketName, bucketRel } from '../fs/layout.js';
import { readBucketLock } from '../lock/object-lock.js';
import { ATTR } from '../meta/attr-names.js';

export type BucketLockConfigStored = BucketLockConfig;

/** Attribute and "not configured" error of each text configuration. */
export const TEXT_CONFIGS = {
  policy: { attr: ATTR.policy, missing: 'NoSuchBucketPolicy' },
  cors: { attr: ATTR.cors, missing: 'NoSuchCORSConfiguration' },
  website: { attr: ATTR.website, missing: 'NoSuchWebsiteConfiguration' },
  ownership: { attr: ATTR.ownership, missing: 'OwnershipControlsNotFoundError' },
  publicAccessBlock: { attr: ATTR.publicAccessBlock, missing: 'NoSuchPublicAccessBlockConfiguration' },
} as const satisfies Record<string, { attr: string; missing: S3ErrorCode }>;
export type TextConfig = keyof typeof TEXT_CONFIGS;

const MAX_BUCKET_TAGS = 50;

async function bucketOf(env: PosixEnv, bucket: string): Promise<string> {
  assertBucketName(bucket);
  await requireBucket(env, bucket);
  return bucketRel(bucket);
}

export async function getTextConfig(env: PosixEnv, bucket: string, which: TextConfig): Promise<string> {
  const rel = await bucketOf(env, bucket);
  const v = await env.meta.get(rel, TEXT_CONFIGS[which].attr);
  if (v === undefined || v.length === 0) throw new S3Error(TEXT_CONFIGS[which].missing);
  return v.toString('utf8');
}

export async function putTextConfig(
  env: PosixEnv,
  bucket: string,
  which: TextConfig,
  value: string,
): Promise<void> {
  const rel = await bucketOf(env, bucket);
  await env.meta.set(rel, TEXT_CONFIGS[which].attr, value);
}

export async function deleteTextConfig(env: PosixEnv, bucket: string, which: TextConfig): Promise<void> {
  const rel = await bucketOf(env, bucket);
  await env.meta.remove(rel, TEXT_CONFIGS[which].attr);
}

/** The notification configuration, or undefined when none is stored (S3 answers an empty one). */
export async function getNotification(env: PosixEnv, bucket: string): Promise<string | undefined> {
  const rel = await bucketOf(env, bucket);
  const v = await env.meta.get(rel, ATTR.notification);
  return v === undefined || v.length === 0 ? undefined : v.toString('utf8');
}

export async function putNotification(env: PosixEnv, bucket: string, xml: string): Promise<void> {
  await env.meta.set(await bucketOf(env, bucket), ATTR.notification, xml);
}

export async function deleteNotification(env: PosixEnv, bucket: string): Promise<void> {
  await env.meta.remove(await bucketOf(env, bucket), ATTR.notification);
}

export async function getOwnership(env: PosixEnv, bucket: string): Promise<ObjectOwnership> {
  return (await getTextConfig(env, bucket, 'ownership')) as ObjectOwnership;
}

const BLOCK_FIELDS = [
  'BlockPublicAcls',
  'IgnorePublicAcls',
  'BlockPublicPolicy',
  'RestrictPublicBuckets',
] as const;

/** The stored JSON, every field read as a boolean (a damaged attribute reads as all false). */
export async function getPublicAccessBlock(env: PosixEnv, bucket: string): Promise<PublicAccessBlock> {
  const text = await getTextConfig(env, bucket, 'publicAccessBlock');
  let v: Partial<Record<(typeof BLOCK_FIELDS)[number], unknown>> = {};
  try {
    v = JSON.parse(text) as typeof v;
  } catch {
    // fall through: all false
  }
  const block = {} as PublicAccessBlock;
  for (const f of BLOCK_FIELDS) block[f] = v[f] === true;
  return block;
}

/**
 * `versioning` is one byte: 1 = Enabled, 0 = Suspended; absent = never set. Without a
 * versioning directory both calls answer VersioningNotConfigured, as versitygw does.
 */
export async function getVersioning(env: PosixEnv, bucket: string): Promise<VersioningStatus | undefined> {
  if (!env.versions) throw new S3Error('VersioningNotConfigured');
  const rel = await bucketOf(env, bucket);
  const v = await env.meta.get(rel, ATTR.versioning);
  if (v === undefined || v.length === 0) return undefined;
  return v[0] === 1 || v.toString() === '1' ? 'Enabled' : 'Suspended';
}

export async function putVersioning(env: PosixEnv, bucket: string, status: VersioningStatus): Promise<void> {
  if (!env.versions) throw new S3Error('VersioningNotConfigured');
  const rel = await bucketOf(env, bucket);
  if (status === 'Suspended' && (await readBucketLock(env, bucket))?.Enabled) {
    throw new S3Error(
      'InvalidBucketState',
      'An Object Lock configuration is present on this bucket, so the versioning state cannot be changed.',
    );
  }
  await env.meta.set(rel, ATTR.versioning, Buffer.from([status === 'Enabled' ? 1 : 0]));
}

export async function getBucketTagging(env: PosixEnv, bucket: string): Promise<TagSet> {
  const rel = await bucketOf(env, bucket);
  const v = await env.meta.get(rel, ATTR.tagging);
  if (v === undefined || v.length === 0) throw new S3Error('NoSuchTagSet');
  return JSON.parse(v.toString('utf8')) as TagSet;
}

export async function putBucketTagging(env: PosixEnv, bucket: string, tags: TagSet): Promise<void> {
  if (Object.keys(tags).length > MAX_BUCKET_TAGS)
    throw new S3Error('BadRequest', 'Bucket tag count cannot be greater than 50');
  const rel = await bucketOf(env, bucket);
  if (Object.keys(tags).length === 0) await env.meta.remove(rel, ATTR.tagging);
  else await env.meta.set(rel, ATTR.tagging, JSON.stringify(tags));
}

export async function deleteBucketTagging(env: PosixEnv, bucket: string): Promise<void> {
  const rel = await bucketOf(env, bucket);
  await env.meta.remove(rel, ATTR.tagging);
}

export async function getLockConfig(env: PosixEnv, bucket: string): Promise<BucketLockConfig> {
  const rel = await bucketOf(env, bucket);
  const v = await env.meta.get(rel, ATTR.bucketLock);
  if (v === undefined || v.length === 0) throw new S3Error('ObjectLockConfigurationNotFoundError');
  return JSON.parse(v.toString('utf8')) as BucketLockConfig;
}

/**
 * A bucket created with object lock can change its configuration; any other bucket needs
 * versioning Enabled first (S3 allows turning lock on for such buckets).
 */
export async function putLockConfig(env: PosixEnv, bucket: string, config: BucketLockConfig): Promise<void> {
  const rel = await bucketOf(env, bucket);
  const prev = await env.meta.get(rel, ATTR.bucketLock);
  if (prev === undefined || prev.length === 0) {
    const v = await env.meta.get(rel, ATTR.versioning);
    if (v?.[0] !== 1) {
      throw new S3Error(
        'InvalidBucketState',
        "Versioning must be 'Enabled' on the bucket to apply a Object Lock configuration",
      );
    }
  }
  const before = prev?.length ? (JSON.parse(prev.toString('utf8')) as BucketLockConfig) : undefined;
  const stored: BucketLockConfig = {
    ...config,
    // Object lock, once enabled, stays enabled (S3 has no way to turn it off).
    Enabled: config.Enabled || before?.Enabled === true,
    CreatedAt: config.CreatedAt ?? before?.CreatedAt ?? new Date().toISOString(),
  };
  await env.meta.set(rel, ATTR.bucketLock, JSON.stringify(stored));
}
