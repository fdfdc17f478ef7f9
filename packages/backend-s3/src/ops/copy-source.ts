// x-amz-copy-source-if-* on CopyObject and UploadPartCopy, checked here against a HEAD of the
// source before the copy is forwarded: Ceph RGW 16.2 ignores them. The conditions still travel
// upstream, so an upstream that enforces them also closes the gap between the HEAD and the copy.
import type { CopySource, RequestContext } from '@vgwrdma/backend-contract';
import { checkConditions } from '@vgwrdma/backend-contract';
import type { Upstream } from '../upstream.js';
import { headObject } from './object-reads.js';

/** PreconditionFailed (412) when the source's conditions reject it; nothing is asked without any. */
export async function checkCopySource(up: Upstream, ctx: RequestContext, source: CopySource): Promise<void> {
  const c = source.conditions;
  if (!c || Object.values(c).every((v) => v === undefined)) return;
  const head = await headObject(up, ctx, {
    bucket: source.bucket,
    key: source.key,
    ...(source.versionId === undefined ? {} : { versionId: source.versionId }),
  });
  checkConditions(c, { etag: head.etag, lastModified: head.lastModified }, false);
}
