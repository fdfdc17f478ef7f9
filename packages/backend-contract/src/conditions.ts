// Conditional requests (If-Match, If-None-Match, If-Modified-Since, If-Unmodified-Since), in the
// precedence RFC 9110 and S3 use, so every backend answers them alike.
import { S3Error } from './errors/s3-error.js';
import type { Conditions } from './types/common.js';

export interface ConditionTarget {
  etag: string;
  lastModified: Date;
}

/** Strips quotes and a weak prefix so `"abc"`, `abc` and `W/"abc"` compare equal. */
export function normalizeETag(etag: string): string {
  return etag
    .trim()
    .replace(/^W\//, '')
    .replace(/^"(.*)"$/, '$1');
}

function etagMatches(list: string, etag: string): boolean {
  const want = normalizeETag(etag);
  return list.split(',').some((item) => {
    const v = item.trim();
    return v === '*' || normalizeETag(v) === want;
  });
}

/** S3 compares dates at one-second resolution. */
function seconds(d: Date): number {
  return Math.floor(d.getTime() / 1000);
}

/**
 * Throws PreconditionFailed (412) or NotModified (304) when the conditions reject the target.
 * `forRead` is true for GET/HEAD (If-None-Match and If-Modified-Since answer 304); for writes
 * and copies, failing conditions are all 412.
 */
export function checkConditions(c: Conditions | undefined, target: ConditionTarget, forRead = true): void {
  if (!c) return;
  const lm = seconds(target.lastModified);
  if (c.ifMatch !== undefined) {
    if (!etagMatches(c.ifMatch, target.etag)) throw new S3Error('PreconditionFailed');
  } else if (c.ifUnmodifiedSince && lm > seconds(c.ifUnmodifiedSince)) {
    throw new S3Error('PreconditionFailed');
  }
  if (c.ifNoneMatch !== undefined) {
    if (etagMatches(c.ifNoneMatch, target.etag)) {
      throw forRead ? new S3Error('NotModified') : new S3Error('PreconditionFailed');
    }
  } else if (c.ifModifiedSince && lm <= seconds(c.ifModifiedSince)) {
    throw forRead ? new S3Error('NotModified') : new S3Error('PreconditionFailed');
  }
}
