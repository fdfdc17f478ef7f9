// A read's conditions in the form every upstream takes: an If-Match of `*` or a list of ETags is
// evaluated against a plain HEAD here and replaced by the one ETag that matched (upstream-quirks.ts).
import { HeadObjectCommand } from '@aws-sdk/client-s3';
import type { HeadObjectInput, RequestContext } from '@vgwrdma/backend-contract';
import { call, type Upstream } from '../upstream.js';
import { localIfMatch, needsLocalIfMatch } from '../upstream-quirks.js';

export async function upstreamReadInput<T extends HeadObjectInput>(
  up: Upstream,
  ctx: RequestContext,
  input: T,
): Promise<T> {
  const conditions = input.conditions;
  const ifMatch = conditions?.ifMatch;
  if (conditions === undefined || !needsLocalIfMatch(ifMatch)) return input;
  const head = await call(ctx, 'object', (o) =>
    up.client.send(
      new HeadObjectCommand({ Bucket: input.bucket, Key: input.key, VersionId: input.versionId }),
      o,
    ),
  );
  const current = { etag: head.ETag ?? '', lastModified: head.LastModified ?? new Date(0) };
  return { ...input, conditions: localIfMatch(ifMatch, conditions, current) };
}
