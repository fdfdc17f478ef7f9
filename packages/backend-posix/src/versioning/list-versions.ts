// ListObjectVersions with a versioning directory: keys in S3 order from the walk of the bucket
// (the latest version of every key sits at its object path), each followed by its archived
// versions newest first. Versions, delete markers and common prefixes all count against
// max-keys; a page ends after (NextKeyMarker, NextVersionIdMarker) and the next one resumes
// after that pair.

import { stat } from 'node:fs/promises';
import type { ListObjectVersionsInput, ListObjectVersionsOutput, Owner } from '@vgwrdma/backend-contract';
import type { PosixEnv } from '../env.js';
import { isErrno, requireBucket } from '../fs/errors.js';
import { abs, assertBucketName, objectRel } from '../fs/layout.js';
import { commonPrefixOf, compareKeys, walk } from '../listing/walk.js';
import { ATTR } from '../meta/attr-names.js';
import { getText, type MetaStore } from '../meta/store.js';
import { listArchived } from './archive.js';
import { NULL_VERSION } from './version-id.js';
import { type VersionStore, versionRel } from './version-store.js';

interface Entry {
  versionId: string;
  isLatest: boolean;
  isMarker: boolean;
  mtime: Date;
  size: number;
  meta: MetaStore;
  rel: string;
}

/** All versions of one key, latest first; empty when the key vanished meanwhile. */
async function versionsOf(
  env: PosixEnv,
  store: VersionStore,
  bucket: string,
  key: string,
  isDir: boolean,
): Promise<Entry[]> {
  const rel = objectRel(bucket, key);
  let st: Awaited<ReturnType<typeof stat>>;
  try {
    st = await stat(abs(env, rel));
  } catch (err) {
    if (isErrno(err, 'ENOENT', 'ENOTDIR')) return [];
    throw err;
  }
  const latest: Entry = {
    versionId: (await getText(env.meta, rel, ATTR.versionId)) || NULL_VERSION,
    isLatest: true,
    isMarker: !isDir && (await env.meta.get(rel, ATTR.deleteMarker)) !== undefined,
    mtime: st.mtime,
    size: isDir ? 0 : st.size,
    meta: env.meta,
    rel,
  };
  if (isDir) return [latest]; // folder objects have no versions
  const out = [latest];
  for (const a of await listArchived(store, bucket, key)) {
    const vrel = versionRel(bucket, key, a.versionId);
    out.push({
      versionId: a.versionId,
      isLatest: false,
      isMarker: (await store.meta.get(vrel, ATTR.deleteMarker).catch(() => undefined)) !== undefined,
      mtime: a.mtime,
      size: a.size,
      meta: store.meta,
      rel: vrel,
    });
  }
  return out;
}

export async function listVersionsPage(
  env: PosixEnv,
  store: VersionStore,
  input: ListObjectVersionsInput,
  owner: Owner | undefined,
): Promise<ListObjectVersionsOutput> {
  assertBucketName(input.bucket);
  await requireBucket(env, input.bucket);
  const out: ListObjectVersionsOutput = {
    versions: [],
    deleteMarkers: [],
    commonPrefixes: [],
    isTruncated: false,
  };
  if (input.maxKeys <= 0) return out;
  const prefix = input.prefix ?? '';
  const delimiter = input.delimiter ?? '';
  const keyMarker = input.keyMarker || undefined;
  // With a version-id marker the marker key's remaining versions come first.
  const resumeKey = keyMarker !== undefined && input.versionIdMarker ? keyMarker : undefined;
  let count = 0;
  let lastPrefix: string | undefined;
  const full = (): boolean => {
    if (count < input.maxKeys) return false;
    out.isTruncated = true;
    return true;
  };
  const emitKey = async (key: string, isDir: boolean, skipThrough?: string): Promise<boolean> => {
    let entries = await versionsOf(env, store, input.bucket, key, isDir);
    if (skipThrough !== undefined) {
      const at = entries.findIndex((e) => e.versionId === skipThrough);
      entries = at < 0 ? [] : entries.slice(at + 1);
    }
    for (const e of entries) {
      if (full()) return false;
      count++;
      out.nextKeyMarker = key;
      out.nextVersionIdMarker = e.versionId;
      const base = {
        key,
        versionId: e.versionId,
        isLatest: e.isLatest,
        lastModified: e.mtime,
        ...(owner ? { owner } : {}),
      };
      if (e.isMarker) out.deleteMarkers.push(base);
      else {
        const etag = (await getText(e.meta, e.rel, ATTR.etag)) ?? '';
        out.versions.push({ ...base, etag, size: e.size, storageClass: 'STANDARD' });
      }
    }
    return true;
  };
  if (
    resumeKey?.startsWith(prefix) &&
    (delimiter === '' || !resumeKey.slice(prefix.length).includes(delimiter))
  ) {
    if (!(await emitKey(resumeKey, resumeKey.endsWith('/'), input.versionIdMarker))) return finish(out);
  }
  for await (const e of walk(env, input.bucket, { prefix, collapse: delimiter === '/', after: keyMarker })) {
    const cp = commonPrefixOf(e, prefix, delimiter);
    if (cp !== undefined) {
      if (cp === lastPrefix || (keyMarker !== undefined && compareKeys(cp, keyMarker) <= 0)) continue;
      if (full()) break;
      count++;
      lastPrefix = cp;
      out.commonPrefixes.push(cp);
      out.nextKeyMarker = cp;
      delete out.nextVersionIdMarker;
      continue;
    }
    if (e.kind !== 'object') continue;
    if (!(await emitKey(e.key, e.isDir))) break;
  }
  return finish(out);
}

function finish(out: ListObjectVersionsOutput): ListObjectVersionsOutput {
  if (!out.isTruncated) {
    delete out.nextKeyMarker;
    delete out.nextVersionIdMarker;
  }
  return out;
}
