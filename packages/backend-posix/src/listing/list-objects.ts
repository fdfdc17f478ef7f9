// ListObjects (v1, v2) and ListObjectVersions over the ordered walk: prefix, delimiter (any
// string; "/" is walked efficiently), max-keys (0 included), and paging by marker,
// continuation token (base64url of the last key returned) or start-after.
import { stat } from 'node:fs/promises';
import {
  type ListedObject,
  type ListObjectsOutput,
  type ListObjectsV1Input,
  type ListObjectsV2Input,
  type ListObjectVersionsInput,
  type ListObjectVersionsOutput,
  type Owner,
  S3Error,
} from '@vgwrdma/s3-backend';
import type { PosixEnv } from '../env.js';
import { isErrno, requireBucket } from '../fs/errors.js';
import { abs, assertBucketName } from '../fs/layout.js';
import { ATTR } from '../meta/attr-names.js';
import type { StoredChecksums } from '../meta/object-attrs.js';
import { getJson, getText } from '../meta/store.js';
import { readBucketOwner } from '../ops/bucket-acl.js';
import { listVersionsPage } from '../versioning/list-versions.js';
import { commonPrefixOf, compareKeys, walk } from './walk.js';

interface Page {
  objects: ListedObject[];
  commonPrefixes: string[];
  isTruncated: boolean;
  /** The last key or common prefix returned (the next page starts after it). */
  last?: string;
}

interface PageRequest {
  bucket: string;
  prefix: string;
  delimiter: string;
  maxKeys: number;
  after?: string | undefined;
  owner?: Owner | undefined;
}

async function describeObject(
  env: PosixEnv,
  key: string,
  rel: string,
  owner?: Owner,
): Promise<ListedObject | undefined> {
  let st: Awaited<ReturnType<typeof stat>>;
  try {
    st = await stat(abs(env, rel));
  } catch (err) {
    if (isErrno(err, 'ENOENT', 'ENOTDIR')) return undefined; // deleted while listing
    throw err;
  }
  // A latest version that is a delete marker hides the key.
  // (Markers exist only with a versioning dir: other trees skip the read.)
  if (
    env.versions &&
    !st.isDirectory() &&
    (await env.meta.get(rel, ATTR.deleteMarker).catch(() => undefined)) !== undefined
  )
    return undefined;
  const etag = (await getText(env.meta, rel, ATTR.etag)) ?? '';
  const obj: ListedObject = {
    key,
    lastModified: st.mtime,
    etag,
    size: st.isDirectory() ? 0 : st.size,
    storageClass: 'STANDARD',
  };
  const sums = await getJson<StoredChecksums>(env.meta, rel, ATTR.checksums);
  if (sums?.Algorithm) obj.checksumAlgorithm = [sums.Algorithm];
  if (owner) obj.owner = owner;
  return obj;
}

async function listPage(env: PosixEnv, req: PageRequest): Promise<Page> {
  assertBucketName(req.bucket);
  await requireBucket(env, req.bucket);
  const page: Page = { objects: [], commonPrefixes: [], isTruncated: false };
  if (req.maxKeys <= 0) return page;
  const { prefix, delimiter, after } = req;
  let lastPrefix: string | undefined;
  let count = 0;
  const emit = (item: string): boolean => {
    if (count === req.maxKeys) {
      page.isTruncated = true;
      return false;
    }
    count++;
    page.last = item;
    return true;
  };
  for await (const e of walk(env, req.bucket, {
    prefix,
    collapse: delimiter === '/',
    after,
    hideMarkers: true,
  })) {
    const cp = commonPrefixOf(e, prefix, delimiter);
    if (cp !== undefined) {
      if (cp === lastPrefix || (after !== undefined && compareKeys(cp, after) <= 0)) continue;
      if (!emit(cp)) break;
      lastPrefix = cp;
      page.commonPrefixes.push(cp);
      continue;
    }
    if (e.kind !== 'object') continue;
    const obj = await describeObject(env, e.key, e.rel, req.owner);
    if (!obj) continue;
    if (!emit(e.key)) break;
    page.objects.push(obj);
  }
  return page;
}

async function ownerIf(env: PosixEnv, bucket: string, want: boolean | undefined): Promise<Owner | undefined> {
  if (!want) return undefined;
  const id = await readBucketOwner(env, bucket);
  return id === undefined ? undefined : { id, displayName: id };
}

export async function listObjectsV1(env: PosixEnv, input: ListObjectsV1Input): Promise<ListObjectsOutput> {
  const page = await listPage(env, {
    bucket: input.bucket,
    prefix: input.prefix ?? '',
    delimiter: input.delimiter ?? '',
    maxKeys: input.maxKeys,
    after: input.marker || undefined,
    owner: await ownerIf(env, input.bucket, input.fetchOwner),
  });
  const out: ListObjectsOutput = {
    contents: page.objects,
    commonPrefixes: page.commonPrefixes,
    isTruncated: page.isTruncated,
  };
  if (page.isTruncated && page.last !== undefined) out.nextMarker = page.last;
  return out;
}

function encodeContinuationToken(key: string): string {
  return Buffer.from(key, 'utf8').toString('base64url');
}

function decodeContinuationToken(token: string): string {
  const key = Buffer.from(token, 'base64url').toString('utf8');
  if (key === '' || encodeContinuationToken(key) !== token) {
    throw new S3Error('InvalidArgument', undefined, { detail: { ArgumentName: 'continuation-token' } });
  }
  return key;
}

export async function listObjectsV2(env: PosixEnv, input: ListObjectsV2Input): Promise<ListObjectsOutput> {
  const after = input.continuationToken
    ? decodeContinuationToken(input.continuationToken)
    : input.startAfter || undefined;
  const page = await listPage(env, {
    bucket: input.bucket,
    prefix: input.prefix ?? '',
    delimiter: input.delimiter ?? '',
    maxKeys: input.maxKeys,
    after,
    owner: await ownerIf(env, input.bucket, input.fetchOwner),
  });
  const out: ListObjectsOutput = {
    contents: page.objects,
    commonPrefixes: page.commonPrefixes,
    isTruncated: page.isTruncated,
  };
  if (page.isTruncated && page.last !== undefined)
    out.nextContinuationToken = encodeContinuationToken(page.last);
  return out;
}

/** Without a versioning dir every object is its own `null` version, and the latest. */
export async function listObjectVersions(
  env: PosixEnv,
  input: ListObjectVersionsInput,
): Promise<ListObjectVersionsOutput> {
  if (env.versions) return listVersionsPage(env, env.versions, input, await ownerIf(env, input.bucket, true));
  const owner = await ownerIf(env, input.bucket, true);
  const page = await listPage(env, {
    bucket: input.bucket,
    prefix: input.prefix ?? '',
    delimiter: input.delimiter ?? '',
    maxKeys: input.maxKeys,
    after: input.keyMarker || undefined,
    owner,
  });
  const out: ListObjectVersionsOutput = {
    versions: page.objects.map((o) => ({
      key: o.key,
      versionId: 'null',
      isLatest: true,
      lastModified: o.lastModified,
      etag: o.etag,
      size: o.size,
      storageClass: o.storageClass,
      ...(o.owner ? { owner: o.owner } : {}),
    })),
    deleteMarkers: [],
    commonPrefixes: page.commonPrefixes,
    isTruncated: page.isTruncated,
  };
  if (page.isTruncated && page.last !== undefined) {
    out.nextKeyMarker = page.last;
    if (!page.commonPrefixes.includes(page.last)) out.nextVersionIdMarker = 'null';
  }
  return out;
}
