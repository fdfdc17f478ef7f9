// Writing one object: the shared core of PutObject and CopyObject. Data goes to a temp file with
// its ETag and checksums computed on the way, is verified (Content-MD5, x-amz-checksum-*,
// length), gets every attribute, and only then is renamed onto its key. Folder objects ("dir/")
// are directories carrying an etag, and must arrive empty.

import { createHash } from 'node:crypto';
import { mkdir, stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import {
  type ChecksumAlgorithm,
  type ChecksumRequest,
  type Checksums,
  type ChecksumType,
  getChecksum,
  MD5_ETAG,
  normalizeETag,
  S3Error,
} from '@vgwrdma/backend-contract';
import type { PosixEnv } from '../env.js';
import { removeEmptyParents } from '../fs/dirs.js';
import { isErrno, mapObjectError, noSuchKey, requireBucket } from '../fs/errors.js';
import type { FileOwner } from '../fs/file-owner.js';
import { drainEmpty, ingest } from '../fs/ingest.js';
import { abs, assertBucketName, assertKey, isFolderKey, objectRel } from '../fs/layout.js';
import { TempFile } from '../fs/temp-file.js';
import { ATTR } from '../meta/attr-names.js';
import {
  type AttrEntries,
  checksumsAttr,
  encodeMpMetadata,
  type StoredChecksums,
} from '../meta/object-attrs.js';
import { withKeyLock } from '../versioning/key-lock.js';
import { planWrite, publishVersion } from '../versioning/write-hook.js';
import { readExisting } from './read-object.js';

/** Largest single PUT (S3: 5 GiB). */
export const MAX_PUT_SIZE = 5 * 1024 ** 3;
const EMPTY_MD5_ETAG = `"${createHash('md5').digest('hex')}"`;
/** CRC64NVME is computed and stored for every object (FULL_OBJECT), as S3 does by default. */
export const DEFAULT_ALGORITHM: ChecksumAlgorithm = 'CRC64NVME';
/** New objects from this size on replace a file by exchanging names and free it after the reply (exchange.ts). */
const HOLD_REPLACED_MIN = 1 << 20;

interface WriteSpec {
  bucket: string;
  key: string;
  body: Readable;
  signal: AbortSignal;
  contentLength?: number | undefined;
  contentMD5?: string | undefined;
  /** A client checksum to compute, verify and store. */
  checksum?: ChecksumRequest | undefined;
  /** An algorithm to compute and store without a value to verify (CopyObject). */
  algorithm?: ChecksumAlgorithm | undefined;
  /** content-type, metadata, tagging, ... (not etag/checksums: those are computed here). */
  attrs: AttrEntries;
  ifMatch?: string | undefined;
  ifNoneMatch?: string | undefined;
  /** --chuid/--chgid: who the new file (and its new parent directories) belong to. */
  owner?: FileOwner | undefined;
}

interface WriteResult {
  etag: string;
  size: number;
  checksums: Checksums;
  checksumType: ChecksumType;
  lastModified: Date;
  /** The new version's id (`null` on suspended buckets; undefined when unversioned). */
  versionId?: string;
}

export async function writeObject(env: PosixEnv, spec: WriteSpec): Promise<WriteResult> {
  assertBucketName(spec.bucket);
  assertKey(spec.key);
  await requireBucket(env, spec.bucket);
  const expectedMd5 = decodeContentMd5(spec.contentMD5);
  await checkWriteConditions(env, spec);
  if (isFolderKey(spec.key)) return writeFolderObject(env, spec);

  const primary = spec.checksum?.algorithm ?? spec.algorithm ?? DEFAULT_ALGORITHM;
  const algorithms = primary === DEFAULT_ALGORITHM ? [primary] : [primary, DEFAULT_ALGORITHM];
  const rel = objectRel(spec.bucket, spec.key);
  const plan = await planWrite(env, spec.bucket, spec.key);
  const tmp = await TempFile.create(env, env.meta, spec.bucket, env.dirPerms, env.filePerms, spec.owner);
  try {
    const got = await ingest(tmp.fh, {
      body: spec.body,
      signal: spec.signal,
      contentLength: spec.contentLength,
      maxSize: MAX_PUT_SIZE,
      algorithms,
      // A Content-MD5 is checked against the real MD5, whatever the ETag mode.
      etag: expectedMd5 ? MD5_ETAG : env.etagMode,
    });
    if (expectedMd5 && !got.etag.md5?.equals(expectedMd5)) throw new S3Error('BadDigest');
    verifyChecksum(spec.checksum, got.checksums);
    const { etag, partEnds } = got.etag;
    const stored: StoredChecksums = { Algorithm: primary, Type: 'FULL_OBJECT', ...got.checksums };
    const attrs: AttrEntries = [...spec.attrs, [ATTR.etag, etag], checksumsAttr(stored)];
    // An ETag of parts records them as a completed upload's do (empty upload id): partNumber
    // GETs and GetObjectAttributes answer by them, in any mode.
    if (partEnds) attrs.push([ATTR.mpMetadata, encodeMpMetadata({ uploadId: '', parts: [...partEnds] })]);
    for (const [attr, value] of attrs) await tmp.setAttr(attr, value);
    // Read before publishing, from our own file: a concurrent writer of the same key cannot
    // lend us its time, and no path lookup is needed.
    const lastModified = tmp.mtime();
    const holdReplaced = got.size >= HOLD_REPLACED_MIN;
    const publish = () =>
      publishVersion(env, plan, tmp, () => tmp.publish(rel, env.dirPerms, true, { holdReplaced }));
    // The check above fails fast, before the body is read; but two conditional writers of one key
    // can both pass it while their bodies stream. Checking again under a per-key lock, right
    // before the rename, lets exactly one of them replace the version both matched.
    const versionId = conditional(spec)
      ? await withKeyLock(CONDITIONAL_LOCK, `${spec.bucket}/${spec.key}`, async () => {
          await checkWriteConditions(env, spec);
          return publish();
        })
      : await publish();
    const value = got.checksums[primary];
    return {
      etag,
      size: got.size,
      checksums: value === undefined ? {} : { [primary]: value },
      checksumType: 'FULL_OBJECT',
      lastModified,
      ...(versionId === undefined ? {} : { versionId }),
    };
  } catch (err) {
    await tmp.discard();
    throw await mapObjectError(err, env, spec.bucket, spec.key);
  }
}

async function writeFolderObject(env: PosixEnv, spec: WriteSpec): Promise<WriteResult> {
  await drainEmpty(spec.body, spec.signal);
  if (spec.contentLength !== undefined && spec.contentLength !== 0)
    throw new S3Error('DirectoryObjectContainsData');
  const rel = objectRel(spec.bucket, spec.key);
  env.meta.admit?.(rel);
  try {
    await mkdir(abs(env, rel), { recursive: true, mode: env.dirPerms });
  } catch (err) {
    if (isErrno(err, 'EEXIST', 'ENOTDIR')) throw new S3Error('ObjectParentIsFile');
    throw await mapObjectError(err, env, spec.bucket, spec.key);
  }
  const crc = getChecksum(DEFAULT_ALGORITHM).create().digest();
  const stored: StoredChecksums = {
    Algorithm: DEFAULT_ALGORITHM,
    Type: 'FULL_OBJECT',
    [DEFAULT_ALGORITHM]: crc,
  };
  // A re-put folder object replaces its attributes. The old ones are kept aside and put back if
  // the new ones do not fit (MetadataTooLarge): a refused write changes nothing.
  const before = await readAllAttrs(env, rel);
  for (const [attr] of before) await env.meta.remove(rel, attr);
  try {
    for (const [attr, value] of [
      ...spec.attrs,
      checksumsAttr(stored),
      [ATTR.etag, EMPTY_MD5_ETAG],
    ] as AttrEntries) {
      await env.meta.set(rel, attr, value);
    }
  } catch (err) {
    for (const attr of await env.meta.list(rel).catch(() => [])) await env.meta.remove(rel, attr);
    for (const [attr, value] of before) await env.meta.set(rel, attr, value).catch(() => undefined);
    // A new folder goes again (it has no etag: removeEmptyParents stops at folder objects).
    await removeEmptyParents(env, env.meta, rel).catch(() => undefined);
    throw await mapObjectError(err, env, spec.bucket, spec.key);
  }
  const st = await stat(abs(env, rel));
  return {
    etag: EMPTY_MD5_ETAG,
    size: 0,
    checksums: { [DEFAULT_ALGORITHM]: crc },
    checksumType: 'FULL_OBJECT',
    lastModified: st.mtime,
  };
}

async function readAllAttrs(env: PosixEnv, rel: string): Promise<AttrEntries> {
  const out: AttrEntries = [];
  for (const attr of await env.meta.list(rel)) {
    const v = await env.meta.get(rel, attr);
    if (v !== undefined) out.push([attr, v]);
  }
  return out;
}

/** Content-MD5 is base64 of 16 bytes; anything else is InvalidDigest before the body is read. */
function decodeContentMd5(b64: string | undefined): Buffer | undefined {
  if (b64 === undefined) return undefined;
  const raw = Buffer.from(b64, 'base64');
  if (raw.length !== 16 || raw.toString('base64') !== b64.trim()) throw new S3Error('InvalidDigest');
  return raw;
}

/** Compares the client's checksum (known only after the body, for trailers) with ours. */
export function verifyChecksum(request: ChecksumRequest | undefined, computed: Checksums): void {
  if (!request) return;
  const expected = request.expected?.();
  if (expected === undefined) return;
  if (computed[request.algorithm] !== expected) {
    throw S3Error.custom(
      'BadDigest',
      `The ${request.algorithm} you specified did not match the calculated checksum.`,
    );
  }
}

/** Lock namespace of conditional publishes (apart from publishVersion's own per-key lock). */
const CONDITIONAL_LOCK = '\0conditional-write';

function conditional(spec: WriteSpec): boolean {
  return spec.ifMatch !== undefined || spec.ifNoneMatch !== undefined;
}

/** If-None-Match: "*" (create only) and If-Match (replace only that version) on writes. */
async function checkWriteConditions(env: PosixEnv, spec: WriteSpec): Promise<void> {
  if (spec.ifMatch === undefined && spec.ifNoneMatch === undefined) return;
  const existing = await readExisting(env, spec.bucket, spec.key);
  if (spec.ifNoneMatch !== undefined && existing) {
    if (spec.ifNoneMatch.trim() === '*' || normalizeETag(spec.ifNoneMatch) === normalizeETag(existing.etag)) {
      throw new S3Error('PreconditionFailed');
    }
  }
  if (spec.ifMatch !== undefined) {
    if (!existing) throw noSuchKey(spec.key);
    if (spec.ifMatch.trim() !== '*' && normalizeETag(spec.ifMatch) !== normalizeETag(existing.etag)) {
      throw new S3Error('PreconditionFailed');
    }
  }
}
