// Per-object sub-resources stored as attributes: tagging, retention, legal hold; and
// GetObjectAttributes, answered from the stored attributes and mp-metadata.
import {
  type GetObjectAttributesInput,
  type GetObjectAttributesOutput,
  normalizeETag,
  type ObjectKey,
  type ObjectRetention,
  S3Error,
  type TagSet,
} from '@vgwrdma/backend-contract';
import type { PosixEnv } from '../env.js';
import type { OpenedObject } from '../fs/open-object.js';
import { assertFutureDate, assertRetentionChange, requireBucketLock } from '../lock/object-lock.js';
import { ATTR } from '../meta/attr-names.js';
import { checkObjectTags, legalHoldByte, primaryChecksums } from '../meta/object-attrs.js';
import { openObject } from './read-object.js';

async function withObject<T>(
  env: PosixEnv,
  input: ObjectKey,
  fn: (o: OpenedObject) => Promise<T>,
): Promise<T> {
  const o = await openObject(env, input.bucket, input.key, input.versionId);
  try {
    return await fn(o);
  } finally {
    await o.fh?.close();
  }
}

export function getObjectTagging(env: PosixEnv, input: ObjectKey): Promise<TagSet> {
  return withObject(env, input, async (o) => o.attrs.tagging ?? {});
}

export async function putObjectTagging(env: PosixEnv, input: ObjectKey, tags: TagSet): Promise<void> {
  checkObjectTags(tags);
  return withObject(env, input, async (o) => {
    if (Object.keys(tags).length === 0) await o.meta.remove(o.rel, ATTR.tagging);
    else await o.meta.set(o.rel, ATTR.tagging, JSON.stringify(tags));
  });
}

export function deleteObjectTagging(env: PosixEnv, input: ObjectKey): Promise<void> {
  return withObject(env, input, (o) => o.meta.remove(o.rel, ATTR.tagging));
}

/** On a bucket without object lock: InvalidRequest (as S3), not "no configuration on the object". */
export async function getObjectRetention(env: PosixEnv, input: ObjectKey): Promise<ObjectRetention> {
  await requireBucketLock(env, input.bucket);
  return withObject(env, input, async (o) => {
    if (!o.attrs.retention) throw new S3Error('NoSuchObjectLockConfiguration');
    return o.attrs.retention;
  });
}

/** Needs an enabled bucket lock; a locked retention may only change as lock/object-lock.ts allows. */
export async function putObjectRetention(
  env: PosixEnv,
  input: ObjectKey,
  retention: ObjectRetention,
  bypassGovernance: boolean,
): Promise<void> {
  await requireBucketLock(env, input.bucket);
  assertFutureDate(retention);
  return withObject(env, input, async (o) => {
    assertRetentionChange(o.attrs.retention, retention, bypassGovernance);
    await o.meta.set(o.rel, ATTR.retention, JSON.stringify(retention));
  });
}

export async function getObjectLegalHold(env: PosixEnv, input: ObjectKey): Promise<boolean> {
  await requireBucketLock(env, input.bucket);
  return withObject(env, input, async (o) => {
    if (o.attrs.legalHold === undefined) throw new S3Error('NoSuchObjectLockConfiguration');
    return o.attrs.legalHold;
  });
}

export async function putObjectLegalHold(env: PosixEnv, input: ObjectKey, on: boolean): Promise<void> {
  await requireBucketLock(env, input.bucket);
  return withObject(env, input, (o) => o.meta.set(o.rel, ATTR.legalHold, legalHoldByte(on)));
}

const DEFAULT_MAX_PARTS = 1000;

export function getObjectAttributes(
  env: PosixEnv,
  input: GetObjectAttributesInput,
): Promise<GetObjectAttributesOutput> {
  return withObject(env, input, async (o) => {
    const want = new Set(input.attributes);
    const out: GetObjectAttributesOutput = { lastModified: o.mtime };
    if (o.versionId !== undefined) out.versionId = o.versionId;
    // GetObjectAttributes answers the ETag unquoted, unlike HEAD.
    if (want.has('ETag') && o.attrs.etag !== undefined) out.etag = normalizeETag(o.attrs.etag);
    if (want.has('ObjectSize')) out.size = o.size;
    if (want.has('StorageClass')) out.storageClass = 'STANDARD';
    if (want.has('Checksum')) {
      const { checksums, type } = primaryChecksums(o.attrs.checksums);
      if (Object.keys(checksums).length > 0) out.checksums = checksums;
      if (type) out.checksumType = type;
    }
    const ends = o.attrs.mp?.parts;
    if (want.has('ObjectParts') && ends) {
      const maxParts = input.maxParts ?? DEFAULT_MAX_PARTS;
      const marker = input.partNumberMarker ?? 0;
      const all = ends.map((end, i) => ({
        partNumber: i + 1,
        size: end - (i === 0 ? 0 : (ends[i - 1] as number)),
      }));
      const after = all.filter((p) => p.partNumber > marker);
      const page = after.slice(0, maxParts);
      const isTruncated = after.length > page.length;
      const last = page[page.length - 1];
      out.parts = {
        totalPartsCount: all.length,
        partNumberMarker: marker,
        maxParts,
        isTruncated,
        parts: page,
        ...(isTruncated && last ? { nextPartNumberMarker: last.partNumber } : {}),
      };
    }
    return out;
  });
}
