// The rules of a tag set, one for both spellings a request uses: the Tagging XML body and the
// x-amz-tagging header (http/headers.ts). Counts, key and value lengths and repeated keys answer
// the error S3 answers.
import { S3Error, type TagSet } from '@vgwrdma/backend-contract';

/** Validates tag pairs as S3 does and builds the set. */
export function tagSetOf(pairs: readonly (readonly [string, string])[], limit: 10 | 50): TagSet {
  if (pairs.length > limit) {
    // Objects: 400 InvalidTag, as S3 answers; buckets keep S3's BadRequest.
    if (limit === 10) throw S3Error.custom('InvalidTag', 'Object tags cannot be greater than 10');
    throw new S3Error('BadRequest', 'Bucket tag count cannot be greater than 50');
  }
  const out: TagSet = {};
  for (const [key, value] of pairs) {
    if (key.length === 0 || key.length > 128)
      throw new S3Error('InvalidTag', 'The TagKey you have provided is invalid');
    if (value.length > 256) throw new S3Error('InvalidTag', 'The TagValue you have provided is invalid');
    if (Object.hasOwn(out, key))
      throw new S3Error('InvalidTag', 'Cannot provide multiple Tags with the same key');
    out[key] = value;
  }
  return out;
}
