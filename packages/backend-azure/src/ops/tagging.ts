// Object tags are Blob Storage's blob index tags (set with the blob, returned with its tag count),
// which restrict keys and values more than S3 does: Azure's InvalidTag comes back as S3's.
import type { RequestContext as Ctx, ObjectKey, TagSet } from '@vgwrdma/backend-contract';
import { az } from '../azure-error.js';
import { blockBlob, checkKey, type Upstream } from '../upstream.js';
import { blobProps } from './objects.js';

export async function getObjectTagging(up: Upstream, _ctx: Ctx, input: ObjectKey): Promise<TagSet> {
  checkKey(input.key);
  await blobProps(up, input.bucket, input.key);
  const res = await az(() => blockBlob(up, input.bucket, input.key).getTags());
  return { ...res.tags };
}

export async function putObjectTagging(
  up: Upstream,
  _ctx: Ctx,
  input: ObjectKey,
  tags: TagSet,
): Promise<void> {
  checkKey(input.key);
  await blobProps(up, input.bucket, input.key);
  await az(() => blockBlob(up, input.bucket, input.key).setTags(tags));
}

export async function deleteObjectTagging(up: Upstream, ctx: Ctx, input: ObjectKey): Promise<void> {
  await putObjectTagging(up, ctx, input, {});
}
