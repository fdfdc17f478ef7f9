// Finishing touches on an object a multipart upload just made, for upstreams that leave them
// out (Ceph RGW 16.2): the ETag, which it answers empty (<ETag/>), from a HEAD of the version just
// written; the tags given at CreateMultipartUpload, which it drops, put on that version.
import { PutObjectTaggingCommand } from '@aws-sdk/client-s3';
import type { RequestContext } from '@vgwrdma/backend-contract';
import { call, type Upstream } from '../upstream.js';
import { headObject } from './object-reads.js';

interface Written {
  bucket: string;
  key: string;
  versionId?: string | undefined;
}

export async function completedEtag(
  up: Upstream,
  ctx: RequestContext,
  object: Written,
  answered: string | undefined,
): Promise<string> {
  if (answered !== undefined && answered !== '' && answered !== '""') return answered;
  const head = await headObject(up, ctx, {
    bucket: object.bucket,
    key: object.key,
    ...(object.versionId ? { versionId: object.versionId } : {}),
  });
  return head.etag;
}

/** Puts `tagging` (the x-amz-tagging query form) on the object just completed. */
export async function tagCompleted(
  up: Upstream,
  ctx: RequestContext,
  object: Written,
  tagging: string,
): Promise<void> {
  const TagSet = [...new URLSearchParams(tagging)].map(([Key, Value]) => ({ Key, Value }));
  await call(ctx, 'object', (o) =>
    up.client.send(
      new PutObjectTaggingCommand({
        Bucket: object.bucket,
        Key: object.key,
        VersionId: object.versionId,
        Tagging: { TagSet },
      }),
      o,
    ),
  );
}
