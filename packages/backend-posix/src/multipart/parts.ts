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
  type ChecksumType,
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
import {
  claimSlot,
  finishSlot,
  inPlaceEnabled,
  placedPart,
  type Slot,
  slotNumbers,
  slotRel,
} from './in-place.js';
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
  /** May go where the object will be (in-place.ts): UploadPart with a known length. */
  inPlace?: boolean;
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
  const owner = accountOwner(env.chown, ctx.account);
  const ingestOptions = {
    body: w.body,
    signal: ctx.signal,
    contentLength: w.contentLength,
    maxSize: MAX_PUT_SIZE,
    algorithms: [...algorithms],
  };
  /** The part's ETag (always its MD5: ingest's default mode), checked; its attributes. */
  const judge = (got: Awaited<ReturnType<typeof ingest>>) => {
    if (expectedMd5 && !got.etag.md5?.equals(expectedMd5)) throw new S3Error('BadDigest');
    verifyChecksum(w.checksum, got.checksums);
    return partAttrs(got.etag.etag, got.checksums, algorithm, type);
  };
  if (w.inPlace && w.contentLength !== undefined && w.contentLength <= MAX_PUT_SIZE && inPlaceEnabled(env)) {
    let slot: Slot | undefined;
    try {
      slot = await claimSlot(env, uploadRel, ref.partNumber, w.contentLength, owner);
    } catch (err) {
      if (isErrno(err, 'ENOENT')) throw noSuchUpload(ref.uploadId);
      throw s3ErrorFromErrno(err) ?? err;
    }
    if (slot) {
      try {
        const got = await ingest(slot.writer, { ...ingestOptions, at: slot.at });
        const { etag, attrs, checksums } = judge(got);
        slot.writer.release();
        await slot.file.close();
        const lastModified = await finishSlot(env, slot, got.size, attrs);
        return { etag, size: got.size, checksums, lastModified };
      } catch (err) {
        await slot.release();
        if (isErrno(err, 'ENOENT')) throw noSuchUpload(ref.uploadId);
        throw s3ErrorFromErrno(err) ?? err; // ENOSPC → InsufficientStorage, EDQUOT, EROFS
      }
    }
  }
  const tmp = await TempFile.create(env, env.meta, ref.bucket, env.dirPerms, env.filePerms, owner);
  try {
    const got = await ingest(tmp.fh, ingestOptions);
    const { etag, attrs, checksums } = judge(got);
    for (const [attr, value] of attrs) await tmp.setAttr(attr, value);
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

/** A part's attributes: etag, and the upload's checksums (with their settings) or its CRC64NVME. */
function partAttrs(
  etag: string,
  got: Checksums,
  algorithm: ChecksumAlgorithm | undefined,
  type: ChecksumType | undefined,
): { etag: string; attrs: [string, string][]; checksums: Checksums } {
  if (!algorithm)
    return {
      etag,
      attrs: [
        [ATTR.etag, etag],
        [ATTR.partCrc64, got.CRC64NVME ?? ''],
      ],
      checksums: {},
    };
  const stored: StoredChecksums = { Algorithm: algorithm, ...(type ? { Type: type } : {}), ...got };
  const value = got[algorithm];
  return {
    etag,
    attrs: [
      [ATTR.etag, etag],
      [ATTR.checksums, JSON.stringify(stored)],
    ],
    checksums: value === undefined ? {} : { [algorithm]: value },
  };
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
    inPlace: true,
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

/**
 * The part n that finished last: its part file, or its in-place record (done), whichever is
 * newer when both exist (a later upload of n went to a part file, or raced the in-place one).
 */
async function currentPart(
  env: PosixEnv,
  uploadRel: string,
  n: number,
): Promise<{ rel: string; size: number; mtime: Date } | undefined> {
  const fileRel = `${uploadRel}/${n}`;
  const file = await stat(abs(env, fileRel)).catch(() => undefined);
  const recordRel = slotRel(uploadRel, n);
  const placed = await placedPart(env, recordRel);
  const record = placed && (await stat(abs(env, recordRel)).catch(() => undefined));
  if (placed && record && (!file || record.mtimeMs >= file.mtimeMs)) {
    return { rel: recordRel, size: placed.size, mtime: record.mtime };
  }
  return file && { rel: fileRel, size: file.size, mtime: file.mtime };
}

export async function listParts(env: PosixEnv, input: ListPartsInput): Promise<ListPartsOutput> {
  const uploadRel = await requireUpload(env, input);
  const { algorithm, type } = await readUploadChecksum(env, uploadRel);
  const marker = input.partNumberMarker ?? 0;
  const numbers = new Set([...(await partNumbers(env, uploadRel)), ...(await slotNumbers(env, uploadRel))]);
  const after = [...numbers].filter((n) => n > marker).sort((a, b) => a - b);
  const parts: ListedPart[] = [];
  let isTruncated = false;
  for (const n of after) {
    if (parts.length >= input.maxParts) {
      isTruncated = true;
      break;
    }
    const found = await currentPart(env, uploadRel, n);
    if (!found) continue; // replaced or removed meanwhile, or still being written in place
    const { rel, size, mtime } = found;
    const part: ListedPart = {
      partNumber: n,
      etag: (await getText(env.meta, rel, ATTR.etag)) ?? '',
      size,
      lastModified: mtime,
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
