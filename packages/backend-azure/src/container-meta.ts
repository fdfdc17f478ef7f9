// Bucket state that S3 has and a container does not — owner, ACL, policy, CORS, website,
// ownership controls, public access block, notifications, tags — kept in the container's
// metadata, one base64url JSON entry per setting (Azure allows 8 KiB of metadata per container,
// which bounds policies and CORS documents). Updates read, change and write the whole set.
import type { ContainerClient } from '@azure/storage-blob';
import { S3Error } from '@vgwrdma/backend-contract';
import { az, azureCode, toS3Error } from './azure-error.js';
import { decodeJson, encodeJson } from './blob-meta.js';

/** The container metadata names, by setting. */
export const BUCKET_META = {
  owner: 's3owner',
  acl: 's3acl',
  policy: 's3policy',
  cors: 's3cors',
  website: 's3website',
  ownership: 's3ownership',
  publicAccessBlock: 's3pab',
  notification: 's3notify',
  tags: 's3tags',
} as const;

export type BucketSetting = keyof typeof BUCKET_META;

export async function readBucketMeta(c: ContainerClient): Promise<Record<string, string>> {
  const props = await az(() => c.getProperties());
  return props.metadata ?? {};
}

export async function getSetting<T>(c: ContainerClient, setting: BucketSetting): Promise<T | undefined> {
  const meta = await readBucketMeta(c);
  return decodeJson<T | undefined>(meta[BUCKET_META[setting]], undefined);
}

/** Sets (or, with undefined, removes) one setting, keeping the others. */
export async function putSetting(c: ContainerClient, setting: BucketSetting, value: unknown): Promise<void> {
  const meta = await readBucketMeta(c);
  const name = BUCKET_META[setting];
  if (value === undefined) delete meta[name];
  else meta[name] = encodeJson(value);
  // Checked here as well as by the service: Azurite does not enforce the limit Azure does.
  if (metadataBytes(meta) > MAX_CONTAINER_METADATA) throw tooLarge(setting);
  try {
    await c.setMetadata(meta);
  } catch (err) {
    if (azureCode(err) === 'InvalidMetadata' || azureCode(err) === 'MetadataTooLarge')
      throw tooLarge(setting);
    throw toS3Error(err);
  }
}

/** Azure's limit on a container's metadata: names and values together. */
export const MAX_CONTAINER_METADATA = 8 * 1024;

function metadataBytes(meta: Record<string, string>): number {
  return Object.entries(meta).reduce((n, [k, v]) => n + Buffer.byteLength(k) + Buffer.byteLength(v), 0);
}

function tooLarge(setting: BucketSetting): S3Error {
  return S3Error.custom(
    'EntityTooLarge',
    `the bucket's settings do not fit Azure's 8 KiB of container metadata (${setting})`,
  );
}
