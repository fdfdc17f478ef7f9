// ListObjects (v1, v2) and ListObjectVersions over the ordered walk: prefix, delimiter (any
// string; "/" is walked efficiently), max-keys (0 included), and paging by marker,
// continuation token (base64url of the last key returned) or start-after.
import {
  type ListedObject,
  type ListObjectsOutput,
  type ListObjectsV1Input,
  type ListObjectsV2Input,
  type ListObjectVersionsInput,
  type ListObjectVersionsOutput,
  type Owner,
  S3Error,
} from '@vgwrdma/backend-contract';
import type { PosixEnv } from '../env.js';
import { requireBucket } from '../fs/errors.js';
import { assertBucketName } from '../fs/layout.js';
import { readBucketOwner } from '../ops/bucket-acl.js';
import { listVersionsPage } from '../versioning/list-versions.js';
import { entryStat, wholeMs } from './entry-stat.js';
import { listedAttrs } from './listed-attrs.js';
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

/**
 * One listed key. A stat that follows no link, and no confinement walk: the walk reached this
 * entry through real directories from the confined bucket directory (readdir types, links are
 * skipped), and a link found here now is no object either, so nothing outside the root is read.
 * Synchronous (entry-stat.ts): the libuv round trip of an async stat cost tens of µs per key
 * under load (issue 22).
 */
async function describeObject(
  env: PosixEnv,
  key: string,
  rel: string,
  owner?: Owner,
): Promise<ListedObject | undefined> {
  const path = `${env.root === '/' ? '' : env.root}/${rel}`;
  const st = entryStat(path);
  if (!st || !(st.isFile || st.isDir)) return undefined; // deleted (or replaced) while listing
  const got = listedAttrs(env, path, rel, st);
  const attrs = got instanceof Promise ? await got : got;
  if (attrs.deleteMarker) return undefined; // a latest version that is a delete marker hides the key
  const obj: ListedObject = {
    key,
    lastModified: new Date(wholeMs(st.mtimeSec, st.mtimeNsec)),
    etag: attrs.etag,
    size: st.isDir ? 0 : st.size,
    storageClass: 'STANDARD',
  };
  if (attrs.algorithm) obj.checksumAlgorithm = [attrs.algorithm];
  if (owner) obj.owner = owner;
  return obj;
}

/** The page a listing asks for: its input's bucket, prefix, delimiter and max-keys, from `after`. */
function pageRequest(
  input: Pick<ListObjectVersionsInput, 'bucket' | 'prefix' | 'delimiter' | 'maxKeys'>,
  after: string | undefined,
  owner: Owner | undefined,
): PageRequest {
  return {
    bucket: input.bucket,
    prefix: input.prefix ?? '',
    delimiter: input.delimiter ?? '',
    maxKeys: input.maxKeys,
    after,
    owner,
  };
}

/** A page of ListObjects (v1 or v2) before its paging marker is set. */
function objectsOutput(page: Page): ListObjectsOutput {
  return { contents: page.objects, commonPrefixes: page.commonPrefixes, isTruncated: page.isTruncated };
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
  const page = await listPage(
    env,
    pageRequest(input, input.marker || undefined, await ownerIf(env, input.bucket, input.fetchOwner)),
  );
  const out = objectsOutput(page);
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
  const page = await listPage(
    env,
    pageRequest(input, after, await ownerIf(env, input.bucket, input.fetchOwner)),
  );
  const out = objectsOutput(page);
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
  const page = await listPage(env, pageRequest(input, input.keyMarker || undefined, owner));
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
