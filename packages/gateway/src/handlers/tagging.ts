// Object and bucket tagging: Get/Put/Delete, as a TagSet document.
import type { ObjectKey, TagSet } from '@vgwrdma/backend-contract';
import { queryValue } from '../http/headers.js';
import type { Handler, S3Request } from '../routes/types.js';
import { each, el, group, xmlDocument } from '../xml/document.js';
import { parseTagging } from '../xml/requests.js';
import { emptyResponse, opt, readBodyText, xmlResponse } from './respond.js';

export function renderTagging(tags: TagSet): string {
  return xmlDocument(
    'Tagging',
    group(
      'TagSet',
      each(Object.entries(tags), ([k, v]) => group('Tag', el('Key', k) + el('Value', v))),
    ),
  );
}

function objectKey(req: S3Request): ObjectKey {
  return { bucket: req.bucket, key: req.key, ...opt('versionId', queryValue(req.query, 'versionId')) };
}

export const getObjectTagging: Handler = async (_c, req) => {
  const tags = await req.backend.getObjectTagging(req.ctx, objectKey(req));
  return xmlResponse(renderTagging(tags), 200, { 'x-amz-version-id': queryValue(req.query, 'versionId') });
};

export const putObjectTagging: Handler = async (_c, req) => {
  const tags = parseTagging(await readBodyText(req), 10);
  await req.backend.putObjectTagging(req.ctx, objectKey(req), tags);
  return emptyResponse(200, { 'x-amz-version-id': queryValue(req.query, 'versionId') });
};

export const deleteObjectTagging: Handler = async (_c, req) => {
  await req.backend.deleteObjectTagging(req.ctx, objectKey(req));
  return emptyResponse(204);
};

export const getBucketTagging: Handler = async (_c, req) => {
  return xmlResponse(renderTagging(await req.backend.getBucketTagging(req.ctx, req.bucket)));
};

export const putBucketTagging: Handler = async (_c, req) => {
  await req.backend.putBucketTagging(req.ctx, req.bucket, parseTagging(await readBodyText(req), 50));
  return emptyResponse(204);
};

export const deleteBucketTagging: Handler = async (_c, req) => {
  await req.backend.deleteBucketTagging(req.ctx, req.bucket);
  return emptyResponse(204);
};
