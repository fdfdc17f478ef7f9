// Object tags are Blob Storage's blob index tags (set with the blob, returned with its tag count),
// which restrict keys and values more than S3 does: Azure's InvalidTag comes back as S3's.
import type { UpstreamOp } from '@vgwrdma/backend-contract';
import { az } from '../azure-error.js';
import { blockBlob, checkKey, type Upstream } from '../upstream.js';
import { blobProps } from './objects.js';

export const getObjectTagging: UpstreamOp<Upstream, 'getObjectTagging'> = async (up, _ctx, input) => {
  checkKey(input.key);
  await blobProps(up, input.bucket, input.key);
  const res = await az(() => blockBlob(up, input.bucket, input.key).getTags());
  return { ...res.tags };
};

export const putObjectTagging: UpstreamOp<Upstream, 'putObjectTagging'> = async (up, _ctx, input, tags) => {
  checkKey(input.key);
  await blobProps(up, input.bucket, input.key);
  await az(() => blockBlob(up, input.bucket, input.key).setTags(tags));
};

export const deleteObjectTagging: UpstreamOp<Upstream, 'deleteObjectTagging'> = async (up, ctx, input) => {
  await putObjectTagging(up, ctx, input, {});
};
