// Bucket lifecycle: a bucket is a top-level directory whose attributes hold its ACL (owner) and
// configuration. Create, head, delete (empty apart from .sgwtmp), list, owner changes.
import { mkdir, readdir, rm, rmdir, stat } from 'node:fs/promises';
import {
  type BucketAcl,
  type BucketSummary,
  type CreateBucketInput,
  type HeadBucketOutput,
  type ListBucketsInput,
  type ListBucketsOutput,
  S3Error,
  s3ErrorFromErrno,
} from '@vgwrdma/backend-contract';
import type { PosixEnv } from '../env.js';
import { isErrno, noSuchBucket, requireBucket } from '../fs/errors.js';
import { abs, assertBucketName, bucketRel, TMP_DIR } from '../fs/layout.js';
import { ATTR } from '../meta/attr-names.js';
import { activeVersioning } from '../versioning/current.js';
import { versionAbs } from '../versioning/version-store.js';
import { readBucketAcl, readBucketOwner, reownAcl, writeBucketAcl } from './bucket-acl.js';
import type { BucketLockConfigStored } from './bucket-config.js';

const BUCKET_NAME_RE = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
const IPV4_RE = /^\d{1,3}(\.\d{1,3}){3}$/;

/** The S3 bucket naming rules (general purpose buckets). */
export function isValidBucketName(name: string): boolean {
  return (
    BUCKET_NAME_RE.test(name) &&
    !IPV4_RE.test(name) &&
    !name.includes('..') &&
    !name.includes('.-') &&
    !name.includes('-.') &&
    !name.startsWith('xn--') &&
    !name.endsWith('-s3alias') &&
    !name.endsWith('--ol-s3')
  );
}

export async function createBucket(env: PosixEnv, input: CreateBucketInput): Promise<void> {
  const { bucket } = input;
  if (!isValidBucketName(bucket))
    throw new S3Error('InvalidBucketName', undefined, { detail: { BucketName: bucket } });
  try {
    await mkdir(abs(env, bucket), { mode: env.dirPerms });
  } catch (err) {
    if (isErrno(err, 'EEXIST')) {
      const owner = await readBucketOwner(env, bucket);
      // No recorded owner (a directory made by hand, an unreadable ACL, or a concurrent create
      // that has not written its ACL yet) is nobody's: only an admin's owner change gives it one.
      if (owner !== undefined && owner !== '' && owner === input.owner)
        throw new S3Error('BucketAlreadyOwnedByYou');
      throw new S3Error('BucketAlreadyExists');
    }
    throw s3ErrorFromErrno(err) ?? err;
  }
  const rel = bucketRel(bucket);
  await writeBucketAcl(env, bucket, input.acl.Owner ? input.acl : { ...input.acl, Owner: input.owner });
  if (input.ownership) await env.meta.set(rel, ATTR.ownership, input.ownership);
  if (input.objectLockEnabled) {
    // Object lock needs versioning: S3 turns it on with the lock (versitygw too, given a dir).
    if (env.versions) await env.meta.set(rel, ATTR.versioning, Buffer.from([1]));
    const lock: BucketLockConfigStored = { Enabled: true, CreatedAt: new Date().toISOString() };
    await env.meta.set(rel, ATTR.bucketLock, JSON.stringify(lock));
  }
}

export async function headBucket(env: PosixEnv, bucket: string): Promise<HeadBucketOutput> {
  assertBucketName(bucket);
  await requireBucket(env, bucket);
  return { region: env.region };
}

export async function deleteBucket(env: PosixEnv, bucket: string): Promise<void> {
  assertBucketName(bucket);
  let entries: string[];
  try {
    entries = await readdir(abs(env, bucket));
  } catch (err) {
    if (isErrno(err, 'ENOENT', 'ENOTDIR')) throw noSuchBucket(bucket);
    throw err;
  }
  const busy = entries.some((e) => e !== TMP_DIR);
  if ((await hasArchivedVersions(env, bucket)) || (busy && (await activeVersioning(env, bucket)))) {
    throw new S3Error(
      'BucketNotEmpty',
      'The bucket you tried to delete is not empty. You must delete all versions in the bucket.',
    );
  }
  if (busy) throw new S3Error('BucketNotEmpty');
  // Open multipart uploads and stray temp files go with the bucket.
  await rm(abs(env, `${bucket}/${TMP_DIR}`), { recursive: true, force: true });
  try {
    await rmdir(abs(env, bucket));
  } catch (err) {
    if (isErrno(err, 'ENOTEMPTY', 'EEXIST')) throw new S3Error('BucketNotEmpty');
    if (isErrno(err, 'ENOENT')) throw noSuchBucket(bucket);
    throw err;
  }
  await env.meta.droppedTree(bucketRel(bucket));
  if (env.versions) {
    await rm(versionAbs(env.versions, bucket), { recursive: true, force: true });
    await env.versions.meta.droppedTree(bucket).catch(() => undefined);
  }
}

async function hasArchivedVersions(env: PosixEnv, bucket: string): Promise<boolean> {
  if (!env.versions) return false;
  try {
    return (await readdir(versionAbs(env.versions, bucket))).some((e) => e !== TMP_DIR);
  } catch (err) {
    if (isErrno(err, 'ENOENT', 'ENOTDIR')) return false;
    throw err;
  }
}

async function allBuckets(env: PosixEnv): Promise<BucketSummary[]> {
  const out: BucketSummary[] = [];
  for (const e of await readdir(env.root, { withFileTypes: true })) {
    // --bucketlinks: a symlink at the top level is a bucket when it leads to a directory.
    if (!(e.isDirectory() || (env.bucketLinks === true && e.isSymbolicLink())) || e.name.startsWith('.'))
      continue;
    let st: Awaited<ReturnType<typeof stat>>;
    try {
      st = await stat(abs(env, e.name));
    } catch {
      continue; // removed while listing, or a link to nothing
    }
    if (!st.isDirectory()) continue;
    const created = st.birthtimeMs > 0 ? st.birthtime : st.mtime;
    const owner = await readBucketOwner(env, e.name);
    out.push(
      owner === undefined
        ? { name: e.name, creationDate: created }
        : { name: e.name, creationDate: created, owner },
    );
  }
  // Bucket names are ASCII: code-unit order is byte order.
  return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

export async function listBuckets(env: PosixEnv, input: ListBucketsInput): Promise<ListBucketsOutput> {
  let buckets = await allBuckets(env);
  if (input.owner !== undefined) buckets = buckets.filter((b) => b.owner === input.owner);
  if (input.prefix) buckets = buckets.filter((b) => b.name.startsWith(input.prefix as string));
  if (input.continuationToken) buckets = buckets.filter((b) => b.name > (input.continuationToken as string));
  const max = input.maxBuckets;
  if (max !== undefined && max >= 0 && buckets.length > max) {
    const page = buckets.slice(0, max);
    const last = page[page.length - 1];
    return last ? { buckets: page, continuationToken: last.name } : { buckets: page };
  }
  return { buckets };
}

export async function listBucketsAndOwners(env: PosixEnv): Promise<BucketSummary[]> {
  return allBuckets(env);
}

export async function changeBucketOwner(env: PosixEnv, bucket: string, newOwner: string): Promise<void> {
  assertBucketName(bucket);
  await requireBucket(env, bucket);
  const acl: BucketAcl = (await readBucketAcl(env, bucket)) ?? { Owner: '', Grantees: [] };
  await writeBucketAcl(env, bucket, reownAcl(acl, newOwner));
}

export async function getBucketAcl(env: PosixEnv, bucket: string): Promise<BucketAcl> {
  assertBucketName(bucket);
  await requireBucket(env, bucket);
  return (await readBucketAcl(env, bucket)) ?? { Owner: '', Grantees: [] };
}

export async function putBucketAcl(env: PosixEnv, bucket: string, acl: BucketAcl): Promise<void> {
  assertBucketName(bucket);
  await requireBucket(env, bucket);
  await writeBucketAcl(env, bucket, acl);
}
