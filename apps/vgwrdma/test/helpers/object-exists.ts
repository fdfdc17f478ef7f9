// objectExists: whether a key is there, by HeadObject — false on 404, any other failure thrown (a
// refusal must not read as "absent"). For tests that check a refused write stored nothing.
import { HeadObjectCommand, type S3Client } from '@aws-sdk/client-s3';

export async function objectExists(sdk: S3Client, Bucket: string, Key: string): Promise<boolean> {
  try {
    await sdk.send(new HeadObjectCommand({ Bucket, Key }));
    return true;
  } catch (e) {
    if ((e as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404) return false;
    throw e;
  }
}
