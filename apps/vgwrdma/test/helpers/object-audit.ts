// Reads back every object of a bucket over plain HTTP and checks it against what its key says it
// must be (object-content.ts): size, bytes, and the ETag both GET and the stored etag answer.
// An object that is visible but short, torn or mislabelled is reported, never skipped.
import { GetObjectCommand, ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import { content, expectedETag, parseSpecKey } from './object-content.js';

export interface AuditProblem {
  readonly key: string;
  readonly why: string;
}

export interface Audit {
  readonly checked: number;
  readonly problems: readonly AuditProblem[];
}

export async function listKeys(sdk: S3Client, Bucket: string, Prefix?: string): Promise<string[]> {
  const keys: string[] = [];
  let ContinuationToken: string | undefined;
  do {
    const page = await sdk.send(
      new ListObjectsV2Command({ Bucket, ContinuationToken, ...(Prefix ? { Prefix } : {}) }),
    );
    for (const o of page.Contents ?? []) if (o.Key) keys.push(o.Key);
    ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (ContinuationToken);
  return keys;
}

/** Checks one object; undefined when it is what its key says. */
export async function checkObject(sdk: S3Client, Bucket: string, key: string): Promise<string | undefined> {
  const spec = parseSpecKey(key);
  if (!spec) return 'key carries no size';
  const got = await sdk.send(new GetObjectCommand({ Bucket, Key: key }));
  const body = Buffer.from((await got.Body?.transformToByteArray()) ?? []);
  if (body.length !== spec.size) return `size ${body.length}, expected ${spec.size}`;
  const want = content(key, spec.size);
  if (!body.equals(want)) return 'bytes differ from the content written';
  const etag = expectedETag(want, spec);
  if (got.ETag !== etag) return `ETag ${got.ETag}, expected ${etag}`;
  return undefined;
}

export async function auditBucket(sdk: S3Client, Bucket: string, Prefix?: string): Promise<Audit> {
  const problems: AuditProblem[] = [];
  const keys = await listKeys(sdk, Bucket, Prefix);
  for (const key of keys) {
    const why = await checkObject(sdk, Bucket, key).catch(
      (e: Error) => `read failed: ${e.name} ${e.message}`,
    );
    if (why) problems.push({ key, why });
  }
  return { checked: keys.length, problems };
}
