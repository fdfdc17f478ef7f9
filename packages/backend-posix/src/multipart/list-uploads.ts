// ListMultipartUploads: every upload directory under `.sgwtmp/multipart/*/`, its key read from
// the hash directory's `objname`. Ordered by key (bytes), then initiation time; prefix,
// delimiter, key/upload-id markers and max-uploads as S3 has them. Claimed (`.inprogress`) and
// aborting uploads are not listed. Without attributes (--nometa) keys are unknown: nothing lists.
import { readdir, stat } from 'node:fs/promises';
import type {
  ListedUpload,
  ListMultipartUploadsInput,
  ListMultipartUploadsOutput,
  Owner,
} from '@vgwrdma/backend-contract';
import type { PosixEnv } from '../env.js';
import { isErrno, requireBucket } from '../fs/errors.js';
import { abs, assertBucketName, MULTIPART_DIR, TMP_DIR } from '../fs/layout.js';
import { compareKeys } from '../listing/walk.js';
import { ATTR } from '../meta/attr-names.js';
import { getText } from '../meta/store.js';
import { readBucketOwner } from '../ops/bucket-acl.js';
import { isValidUploadId, readUploadChecksum } from './uploads.js';

async function names(env: PosixEnv, rel: string): Promise<string[]> {
  try {
    return await readdir(abs(env, rel));
  } catch (err) {
    if (isErrno(err, 'ENOENT', 'ENOTDIR')) return [];
    throw err;
  }
}

async function allUploads(
  env: PosixEnv,
  bucket: string,
  prefix: string,
  owner?: Owner,
): Promise<ListedUpload[]> {
  const base = `${bucket}/${TMP_DIR}/${MULTIPART_DIR}`;
  const out: ListedUpload[] = [];
  for (const hash of await names(env, base)) {
    const hashRel = `${base}/${hash}`;
    const key = await getText(env.meta, hashRel, ATTR.objname).catch(() => undefined);
    if (key === undefined || !key.startsWith(prefix)) continue;
    for (const id of await names(env, hashRel)) {
      if (!isValidUploadId(id)) continue; // `<id>.<etag>.inprogress`, `<id>.aborting`
      const rel = `${hashRel}/${id}`;
      let initiated: Date;
      try {
        const st = await stat(abs(env, rel));
        initiated = st.birthtimeMs > 0 ? st.birthtime : st.mtime;
      } catch {
        continue;
      }
      const { algorithm, type } = await readUploadChecksum(env, rel);
      out.push({
        key,
        uploadId: id,
        initiated,
        storageClass: 'STANDARD',
        ...(owner ? { owner, initiator: owner } : {}),
        ...(algorithm ? { checksumAlgorithm: algorithm } : {}),
        ...(type ? { checksumType: type } : {}),
      });
    }
  }
  return out.sort(
    (a, b) =>
      compareKeys(a.key, b.key) ||
      a.initiated.getTime() - b.initiated.getTime() ||
      (a.uploadId < b.uploadId ? -1 : 1),
  );
}

export async function listMultipartUploads(
  env: PosixEnv,
  input: ListMultipartUploadsInput,
): Promise<ListMultipartUploadsOutput> {
  assertBucketName(input.bucket);
  await requireBucket(env, input.bucket);
  const prefix = input.prefix ?? '';
  const delimiter = input.delimiter ?? '';
  const ownerId = await readBucketOwner(env, input.bucket);
  let uploads = await allUploads(
    env,
    input.bucket,
    prefix,
    ownerId === undefined ? undefined : { id: ownerId, displayName: ownerId },
  );
  const { keyMarker, uploadIdMarker } = input;
  if (keyMarker) {
    // With an upload-id marker, uploads of the marker key after that upload still count.
    const pos = uploadIdMarker
      ? uploads.findIndex((u) => u.key === keyMarker && u.uploadId === uploadIdMarker)
      : -1;
    uploads = uploads.filter(
      (u, i) => compareKeys(u.key, keyMarker) > 0 || (pos >= 0 && u.key === keyMarker && i > pos),
    );
  }
  const out: ListMultipartUploadsOutput = {
    bucket: input.bucket,
    uploads: [],
    commonPrefixes: [],
    isTruncated: false,
    maxUploads: input.maxUploads,
    ...(keyMarker ? { keyMarker } : {}),
    ...(uploadIdMarker ? { uploadIdMarker } : {}),
  };
  let count = 0;
  let last: { key: string; uploadId?: string } | undefined;
  for (const u of uploads) {
    let cp: string | undefined;
    if (delimiter !== '') {
      const idx = u.key.indexOf(delimiter, prefix.length);
      if (idx >= 0) cp = u.key.slice(0, idx + delimiter.length);
    }
    if (cp !== undefined && out.commonPrefixes[out.commonPrefixes.length - 1] === cp) continue;
    if (cp !== undefined && keyMarker && compareKeys(cp, keyMarker) <= 0) continue;
    if (count >= input.maxUploads) {
      out.isTruncated = true;
      break;
    }
    count++;
    if (cp !== undefined) {
      out.commonPrefixes.push(cp);
      last = { key: cp };
    } else {
      out.uploads.push(u);
      last = { key: u.key, uploadId: u.uploadId };
    }
  }
  if (out.isTruncated && last) {
    out.nextKeyMarker = last.key;
    if (last.uploadId) out.nextUploadIdMarker = last.uploadId;
  }
  return out;
}
