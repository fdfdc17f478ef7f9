// Parts of a multipart upload: UploadPart and UploadPartCopy write a part file named by its
// number into the upload directory (through a temp file, like objects), with its etag and
// either the upload's checksum (`checksums`) or, when the upload named none, `part-crc64nvme`.
// A part it replaces is kept for Complete (replaced-parts.ts). ListParts reads them back.

import { readdir, stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import {
  type ChecksumAlgorithm,
  type ChecksumRequest,
  type Checksums,
  checkConditions,
  type ListedPart,
  type ListPartsInput,
  type ListPartsOutput,
  type RequestContext,
  resolveRange,
  S3Error,
  s3ErrorFromErrno,
  type UploadPartCopyInput,
  type UploadPartCopyOutput,
  type UploadPartInput,
  type UploadPartOutput,
} from '@vgwrdma/backend-contract';
import type { PosixEnv } from '../env.js';
import { isErrno } from '../fs/errors.js';
import { accountOwner } from '../fs/file-owner.js';
import { ingest } from '../fs/ingest.js';
import { abs } from '../fs/layout.js';
import { TempFile } from '../fs/temp-file.js';
import { ATTR } from '../meta/attr-names.js';
import type { StoredChecksums } from '../meta/object-attrs.js';
import { getJson, getText } from '../meta/store.js';
import { readBucketOwner } from '../ops/bucket-acl.js';
import { openObject } from '../ops/read-object.js';
import { MAX_PUT_SIZE, verifyChecksum } from '../ops/write-object.js';
import { publishPart } from './replaced-parts.js';
import { MAX_PART_NUMBER, noSuchUpload, readUploadChecksum, requireUpload } from './uploads.js';

function checkPartNumber(n: number): void {
  if (!Number.isInteger(n) || n < 1 || n > MAX_PART_NUMBER) {
    throw S3Error.custom('InvalidArgument', 'Part number must be an integer between 1 and 10000, inclusive', {
      detail: { ArgumentName: 'partNumber', ArgumentValue: String(n) },
    });
  }
}

interface PartWrite {
  body: Readable;
  contentLength?: number | undefined;
  contentMD5?: string | undefined;
  checksum?: ChecksumRequest | undefined;
}

interface PartWritten {
  etag: string;
  size: number;
  checksums: Checksums;
  lastModified: Date;
}

async function writePart(
  env: PosixEnv,
  ctx: RequestContext,
  ref: UploadPartInput | UploadPartCopyInput,
  w: PartWrite,
): Promise<PartWritten> {
  checkPartNumber(ref.partNumber);
  const uploadRel = await requireUpload(env, ref);
  const { algorithm, type } = await readUploadChecksum(env, uploadRel);
  // CRC64NVME always: Complete combines the parts' CRCs into the object's without re-reading.
  const algorithms = new Set<ChecksumAlgorithm>(['CRC64NVME']);
  if (algorithm) algorithms.add(algorithm);
  if (w.checksum) algorithms.add(w.checksum.algorithm);
  const expectedMd5 = w.contentMD5 === undefined ? undefined : Buffer.from(w.contentMD5, 'base64');
  if (expectedMd5 && expectedMd5.length !== 16) throw new S3Error('InvalidDigest');
  const tmp = await TempFile.create(
    env,
    env.meta,
    ref.bucket,
    env.dirPerms,
    env.filePerms,
    accountOwner(env.chown, ctx.account),
  );
  try {
    const got = await ingest(tmp.fh, {
      body: w.body,
      signal: ctx.signal,
      contentLength: w.contentLength,
      maxSize: MAX_PUT_SIZE,
      algorithms: [...algorithms],
    });
    // A part's ETag is always its MD5 (ingest's default mode).
    if (expectedMd5 && !got.etag.md5?.equals(expectedMd5)) throw new S3Error('BadDigest');
    verifyChecksum(w.checksum, got.checksums);
    const etag = got.etag.etag;
    await tmp.setAttr(ATTR.etag, etag);
    let checksums: Checksums = {};
    if (algorithm) {
      const stored: StoredChecksums = {
        Algorithm: algorithm,
        ...(type ? { Type: type } : {}),
        ...got.checksums,
      };
      await tmp.setAttr(ATTR.checksums, JSON.stringify(stored));
      const value = got.checksums[algorithm];
      if (value !== undefined) checksums = { [algorithm]: value };
    } else {
      await tmp.setAttr(ATTR.partCrc64, got.checksums.CRC64NVME ?? '');
    }
    const partRel = `${uploadRel}/${ref.partNumber}`;
    try {
      await publishPart(env, partRel, etag, () => tmp.publish(partRel, env.dirPerms, false));
    } catch (err) {
      // The upload was completed or aborted while this part was arriving.
      if (isErrno(err, 'ENOENT')) throw noSuchUpload(ref.uploadId);
      throw err;
    }
    const st = await stat(abs(env, partRel)).catch(() => undefined);
    return { etag, size: got.size, checksums, lastModified: st?.mtime ?? new Date() };
  } catch (err) {
    await tmp.discard();
    throw s3ErrorFromErrno(err) ?? err; // ENOSPC → InsufficientStorage, EDQUOT, EROFS
  }
}

export async function uploadPart(
  env: PosixEnv,
  ctx: RequestContext,
  input: UploadPartInput,
): Promise<UploadPartOutput> {
  const r = await writePart(env, ctx, input, {
    body: input.body,
    contentLength: input.contentLength,
    contentMD5: input.contentMD5,
    checksum: input.checksum,
  });
  return { etag: r.etag, size: r.size, checksums: r.checksums };
}

export async function uploadPartCopy(
  env: PosixEnv,
  ctx: RequestContext,
  input: UploadPartCopyInput,
): Promise<UploadPartCopyOutput> {
  checkPartNumber(input.partNumber);
  await requireUpload(env, input);
  const { source } = input;
  const src = await openObject(env, source.bucket, source.key, source.versionId);
  try {
    checkConditions(source.conditions, { etag: src.attrs.etag ?? '', lastModified: src.mtime }, false);
    let start = 0;
    let end = src.size - 1;
    if (input.sourceRange) {
      // Unlike a GET Range, a copy range must lie wholly inside the source.
      if (input.sourceRange.end >= src.size) {
        throw new S3Error('InvalidRange', undefined, { detail: { ActualObjectSize: String(src.size) } });
      }
      const r = resolveRange(
        { kind: 'range', first: input.sourceRange.start, last: input.sourceRange.end },
        src.size,
      );
      start = r.start;
      end = r.end;
    }
    const length = end - start + 1;
    const body = src.fh && length > 0 ? src.fh.createReadStream({ start, end }) : Readable.from([]);
    const r = await writePart(env, ctx, input, { body, contentLength: length });
    return {
      etag: r.etag,
      lastModified: r.lastModified,
      checksums: r.checksums,
      ...(src.versionId === undefined ? {} : { copySourceVersionId: src.versionId }),
    };
  } finally {
    await src.fh?.close().catch(() => undefined);
  }
}

/** Part files of an upload directory, by number, ascending. */
async function partNumbers(env: PosixEnv, uploadRel: string): Promise<number[]> {
  const names = await readdir(abs(env, uploadRel));
  return names
    .filter((n) => /^[1-9]\d{0,4}$/.test(n))
    .map(Number)
    .filter((n) => n <= MAX_PART_NUMBER)
    .sort((a, b) => a - b);
}

/** The checksums a part carries (the upload's algorithm, when it named one). */
export async function partChecksums(env: PosixEnv, partRel: string): Promise<StoredChecksums | undefined> {
  return getJson<StoredChecksums>(env.meta, partRel, ATTR.checksums);
}

export async function listParts(env: PosixEnv, input: ListPartsInput): Promise<ListPartsOutput> {
  const uploadRel = await requireUpload(env, input);
  const { algorithm, type } = await readUploadChecksum(env, uploadRel);
  const marker = input.partNumberMarker ?? 0;
  const after = (await partNumbers(env, uploadRel)).filter((n) => n > marker);
  const parts: ListedPart[] = [];
  let isTruncated = false;
  for (const n of after) {
    if (parts.length >= input.maxParts) {
      isTruncated = true;
      break;
    }
    const rel = `${uploadRel}/${n}`;
    let st: Awaited<ReturnType<typeof stat>>;
    try {
      st = await stat(abs(env, rel));
    } catch {
      continue; // replaced or removed meanwhile
    }
    const part: ListedPart = {
      partNumber: n,
      etag: (await getText(env.meta, rel, ATTR.etag)) ?? '',
      size: st.size,
      lastModified: st.mtime,
    };
    const sums = algorithm ? await partChecksums(env, rel) : undefined;
    const value = algorithm ? sums?.[algorithm] : undefined;
    if (algorithm && value !== undefined) part.checksums = { [algorithm]: value };
    parts.push(part);
  }
  const ownerId = await readBucketOwner(env, input.bucket);
  const owner = ownerId === undefined ? undefined : { id: ownerId, displayName: ownerId };
  const last = parts[parts.length - 1];
  return {
    bucket: input.bucket,
    key: input.key,
    uploadId: input.uploadId,
    parts,
    partNumberMarker: marker,
    maxParts: input.maxParts,
    isTruncated,
    storageClass: 'STANDARD',
    ...(isTruncated && last ? { nextPartNumberMarker: last.partNumber } : {}),
    ...(owner ? { owner, initiator: owner } : {}),
    ...(algorithm ? { checksumAlgorithm: algorithm } : {}),
    ...(type ? { checksumType: type } : {}),
  };
}
