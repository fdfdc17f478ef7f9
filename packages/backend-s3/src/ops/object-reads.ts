// The single-object reads forwarded upstream: GetObject (the upstream body handed on as it
// arrives) and HeadObject (a 404 asks whether the bucket is there), and that bucket check itself.
// A module of its own: copy, completion and attribute code read objects too, and objects.ts (the
// writes) imports them, so the reads depend on no write path.
import { GetObjectCommand, HeadBucketCommand, HeadObjectCommand } from '@aws-sdk/client-s3';
import type { GetObjectOutput, HeadObjectInput, RequestContext } from '@vgwrdma/backend-contract';
import { S3Error } from '@vgwrdma/backend-contract';
import { objectInfoFrom, rangeHeader } from '../convert.js';
import { call, checkBucket, type S3Op, type Upstream } from '../upstream.js';
import { upstreamReadInput } from './read-conditions.js';

function readFields(input: HeadObjectInput) {
  const c = input.conditions;
  return {
    Bucket: input.bucket,
    Key: input.key,
    VersionId: input.versionId,
    Range: input.range === undefined ? undefined : rangeHeader(input.range),
    PartNumber: input.partNumber,
    IfMatch: c?.ifMatch,
    IfNoneMatch: c?.ifNoneMatch,
    IfModifiedSince: c?.ifModifiedSince,
    IfUnmodifiedSince: c?.ifUnmodifiedSince,
    ChecksumMode: input.checksumMode === true ? ('ENABLED' as const) : undefined,
  };
}

export const getObject: S3Op<'getObject'> = async (up, ctx, input) => {
  checkBucket(up, input.bucket);
  const sent = await upstreamReadInput(up, ctx, input);
  const out = await call(ctx, 'object', (o) => up.client.send(new GetObjectCommand(readFields(sent)), o));
  const body = out.Body;
  if (body === undefined || !('pipe' in body)) throw new S3Error('InternalError');
  // The SDK's body is the upstream's response stream: handed on unread, so bytes flow through.
  return { ...objectInfoFrom(input.key, out), body: body as unknown as GetObjectOutput['body'] };
};

export const headObject: S3Op<'headObject'> = async (up, ctx, input) => {
  checkBucket(up, input.bucket);
  try {
    const sent = await upstreamReadInput(up, ctx, input);
    const out = await call(ctx, 'object', (o) => up.client.send(new HeadObjectCommand(readFields(sent)), o));
    return objectInfoFrom(input.key, out);
  } catch (err) {
    // A HEAD 404 has no body to say what is missing: ask whether the bucket is there.
    if (err instanceof S3Error && err.code === 'NoSuchKey') await bucketMustExist(up, ctx, input.bucket);
    throw err;
  }
};

export async function bucketMustExist(up: Upstream, ctx: RequestContext, bucket: string): Promise<void> {
  await call(ctx, 'bucket', (o) => up.client.send(new HeadBucketCommand({ Bucket: bucket }), o));
}
