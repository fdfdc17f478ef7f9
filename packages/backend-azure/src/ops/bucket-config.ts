// The bucket configurations S3 stores and Blob Storage has no place for (policy, CORS, website,
// ownership controls, public access block, notifications, tags): each one container-metadata
// entry, with the S3 error S3 answers when it is absent.
import type {
  RequestContext as Ctx,
  ObjectOwnership,
  PublicAccessBlock,
  S3ErrorCode,
  TagSet,
} from '@vgwrdma/backend-contract';
import { S3Error } from '@vgwrdma/backend-contract';
import { type BucketSetting, getSetting, putSetting } from '../container-meta.js';
import { container, type Upstream } from '../upstream.js';

async function required<T>(
  up: Upstream,
  bucket: string,
  setting: BucketSetting,
  missing: S3ErrorCode,
): Promise<T> {
  const value = await getSetting<T>(container(up, bucket), setting);
  if (value === undefined) throw new S3Error(missing);
  return value;
}

const put = (up: Upstream, bucket: string, setting: BucketSetting, value: unknown) =>
  putSetting(container(up, bucket), setting, value);

export const getBucketPolicy = (up: Upstream, _ctx: Ctx, b: string) =>
  required<string>(up, b, 'policy', 'NoSuchBucketPolicy');
export const putBucketPolicy = (up: Upstream, _ctx: Ctx, b: string, policy: string) =>
  put(up, b, 'policy', policy);
export const deleteBucketPolicy = (up: Upstream, _ctx: Ctx, b: string) => put(up, b, 'policy', undefined);

export const getBucketCors = (up: Upstream, _ctx: Ctx, b: string) =>
  required<string>(up, b, 'cors', 'NoSuchCORSConfiguration');
export const putBucketCors = (up: Upstream, _ctx: Ctx, b: string, cors: string) => put(up, b, 'cors', cors);
export const deleteBucketCors = (up: Upstream, _ctx: Ctx, b: string) => put(up, b, 'cors', undefined);

export const getBucketWebsite = (up: Upstream, _ctx: Ctx, b: string) =>
  required<string>(up, b, 'website', 'NoSuchWebsiteConfiguration');
export const putBucketWebsite = (up: Upstream, _ctx: Ctx, b: string, website: string) =>
  put(up, b, 'website', website);
export const deleteBucketWebsite = (up: Upstream, _ctx: Ctx, b: string) => put(up, b, 'website', undefined);

export const getBucketOwnershipControls = (up: Upstream, _ctx: Ctx, b: string) =>
  required<ObjectOwnership>(up, b, 'ownership', 'OwnershipControlsNotFoundError');
export const putBucketOwnershipControls = (up: Upstream, _ctx: Ctx, b: string, o: ObjectOwnership) =>
  put(up, b, 'ownership', o);
export const deleteBucketOwnershipControls = (up: Upstream, _ctx: Ctx, b: string) =>
  put(up, b, 'ownership', undefined);

export const getPublicAccessBlock = (up: Upstream, _ctx: Ctx, b: string) =>
  required<PublicAccessBlock>(up, b, 'publicAccessBlock', 'NoSuchPublicAccessBlockConfiguration');
export const putPublicAccessBlock = (up: Upstream, _ctx: Ctx, b: string, block: PublicAccessBlock) =>
  put(up, b, 'publicAccessBlock', block);
export const deletePublicAccessBlock = (up: Upstream, _ctx: Ctx, b: string) =>
  put(up, b, 'publicAccessBlock', undefined);

export const getBucketNotification = (up: Upstream, _ctx: Ctx, b: string) =>
  getSetting<string>(container(up, b), 'notification');
export const putBucketNotification = (up: Upstream, _ctx: Ctx, b: string, config: string) =>
  put(up, b, 'notification', config);
export const deleteBucketNotification = (up: Upstream, _ctx: Ctx, b: string) =>
  put(up, b, 'notification', undefined);

export const getBucketTagging = (up: Upstream, _ctx: Ctx, b: string) =>
  required<TagSet>(up, b, 'tags', 'NoSuchTagSet');
export const putBucketTagging = (up: Upstream, _ctx: Ctx, b: string, tags: TagSet) =>
  put(up, b, 'tags', tags);
export const deleteBucketTagging = (up: Upstream, _ctx: Ctx, b: string) => put(up, b, 'tags', undefined);
