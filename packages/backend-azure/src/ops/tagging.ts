import { az } from '../azure-error.js';
import { type AzureOp, blockBlob, checkKey } from '../upstream.js';
import { blobProps } from './objects.js';

export const getObjectTagging: AzureOp<'getObjectTagging'> = async (up, _ctx, input) => {
  checkKey(input.key);
  await blobProps(up, input.bucket, input.key);
  const res = await az(() => blockBlob(up, input.bucket, input.key).getTags());
  return { ...res.tags };
};

export const putObjectTagging: AzureOp<'putObjectTagging'> = async (up, _ctx, input, tags) => {
  checkKey(input.key);
  await blobProps(up, input.bucket, input.key);
  await az(() => blockBlob(up, input.bucket, input.key).setTags(tags));
};

export const deleteObjectTagging: AzureOp<'deleteObjectTagging'> = async (up, ctx, input) => {
  await putObjectTagging(up, ctx, input, {});
};
