// Multipart uploads as staged blocks: each part's bytes are staged on the destination blob under
// block ids that name the upload and part (block-ids.ts), its ETag and checksums recorded beside
// (upload-records.ts); Complete checks the list S3 checks (order, ETags, 5 MiB minimum), commits
// the chosen parts' blocks in one Put Block List and combines the parts' CRC64NVMEs into the
// object's FULL_OBJECT checksum. The object remembers which upload and part list made it, so a
// repeated Complete answers the same ETag.
import { createHash } from 'node:crypto';
import {
  CHECKSUMS,
  type CompleteMultipartUploadInput,
  type ListPartsOutput,
  multipartETag,
  normalizeETag,
  pageUploads,
  S3Error,
} from '@vgwrdma/backend-contract';
import { az, isNotFound, toS3Error } from '../azure-error.js';
import { META, type StoredObject } from '../blob-meta.js';
import { blockId, newUploadId } from '../block-ids.js';
import { stageBody } from '../block-writer.js';
import {
  listUploadRecords,
  readParts,
  readUpload,
  removeUpload,
  writePart,
  writeUpload,
} from '../upload-records.js';
import { type AzureOp, blockBlob, checkKey, checkMetadata, container, type Upstream } from '../upstream.js';
import { commit, getObject, pickHeaders } from './objects.js';

const MIN_PART_SIZE = 5 * 1024 * 1024;
const MAX_PART_NUMBER = 10_000;

function checkPartNumber(n: number): void {
  if (!Number.isInteger(n) || n < 1 || n > MAX_PART_NUMBER) {
    throw S3Error.custom('InvalidArgument', 'Part number must be an integer between 1 and 10000, inclusive');
  }
}

export const createMultipartUpload: AzureOp<'createMultipartUpload'> = async (up, _ctx, input) => {
  checkKey(input.key);
  checkMetadata(input.metadata);
  const uploadId = newUploadId();
  await writeUpload(up, input.bucket, uploadId, {
    key: input.key,
    attrs: {
      ...pickHeaders(input),
      ...(input.metadata ? { metadata: input.metadata } : {}),
      ...(input.tagging ? { tagging: input.tagging } : {}),
    },
    ...(input.checksumAlgorithm ? { checksumAlgorithm: input.checksumAlgorithm } : {}),
  });
  return { bucket: input.bucket, key: input.key, uploadId };
};

/** Passes the body through, feeding CRC64NVME on the way (kept for every part). */
async function* withCrc64(body: AsyncIterable<Uint8Array | string>, hasher: { update(b: Uint8Array): void }) {
  for await (const chunk of body) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    hasher.update(bytes);
    yield bytes;
  }
}

export const uploadPart: AzureOp<'uploadPart'> = async (up, _ctx, input) => {
  checkPartNumber(input.partNumber);
  await readUpload(up, input.bucket, input.uploadId, input.key);
  const crc = CHECKSUMS.CRC64NVME.create();
  const asked = input.checksum?.algorithm;
  const body = asked && asked !== 'CRC64NVME' ? withCrc64(input.body, crc) : input.body;
  const target = {
    blob: blockBlob(up, input.bucket, input.key),
    uploadId: input.uploadId,
    part: input.partNumber,
  };
  const staged = await stageBody(
    target,
    body,
    { checksum: input.checksum, contentMD5: input.contentMD5, contentLength: input.contentLength },
    true,
  );
  const d = staged.digest;
  const crc64 = d.checksums.CRC64NVME ?? crc.digest();
  await writePart(up, input.bucket, input.uploadId, {
    partNumber: input.partNumber,
    etag: d.etag,
    size: d.size,
    checksums: input.checksum ? d.checksums : {},
    crc64,
    nonce: staged.nonce,
    blocks: staged.blockIds.length,
  });
  return { etag: d.etag, size: d.size, checksums: input.checksum ? d.checksums : {} };
};

export const uploadPartCopy: AzureOp<'uploadPartCopy'> = async (up, ctx, input) => {
  checkPartNumber(input.partNumber);
  await readUpload(up, input.bucket, input.uploadId, input.key);
  const range = input.sourceRange;
  const src = await getObject(up, ctx, {
    bucket: input.source.bucket,
    key: input.source.key,
    ...(input.source.conditions ? { conditions: input.source.conditions } : {}),
    ...(range ? { range: { kind: 'range', first: range.start, last: range.end } } : {}),
  });
  if (range && range.end >= src.size) {
    src.body.destroy();
    throw new S3Error('InvalidRange');
  }
  const length = src.range ? src.range.end - src.range.start + 1 : src.size;
  const out = await uploadPart(up, ctx, { ...input, body: src.body, contentLength: length });
  return { etag: out.etag, lastModified: new Date() };
};

const signatureOf = (input: CompleteMultipartUploadInput) =>
  createHash('sha256')
    .update(input.parts.map((p) => `${p.partNumber}:${normalizeETag(p.etag)}`).join(','))
    .digest('hex')
    .slice(0, 32);

export const completeMultipartUpload: AzureOp<'completeMultipartUpload'> = async (up, _ctx, input) => {
  const done = `${input.uploadId}.${signatureOf(input)}`;
  let record: Awaited<ReturnType<typeof readUpload>>;
  try {
    record = await readUpload(up, input.bucket, input.uploadId, input.key);
  } catch (err) {
    // A repeated Complete with the same parts succeeds with the same answer.
    if ((err as S3Error).code !== 'NoSuchUpload') throw err;
    const props = await blockBlob(up, input.bucket, input.key)
      .getProperties()
      .catch(() => undefined);
    const etag = props?.metadata?.[META.etag];
    if (props?.metadata?.[META.upload] === done && etag)
      return { bucket: input.bucket, key: input.key, etag };
    throw err;
  }
  const recorded = new Map((await readParts(up, input.bucket, input.uploadId)).map((p) => [p.partNumber, p]));
  const chosen = [];
  for (const [i, p] of input.parts.entries()) {
    const prev = input.parts[i - 1];
    if (prev && prev.partNumber >= p.partNumber) throw new S3Error('InvalidPartOrder');
    const part = recorded.get(p.partNumber);
    if (!part || normalizeETag(part.etag) !== normalizeETag(p.etag)) throw new S3Error('InvalidPart');
    chosen.push(part);
  }
  if (chosen.length === 0) throw new S3Error('MalformedXML');
  for (const part of chosen.slice(0, -1)) if (part.size < MIN_PART_SIZE) throw new S3Error('EntityTooSmall');

  const spec = CHECKSUMS.CRC64NVME;
  let crc = chosen[0]?.crc64 as string;
  for (const part of chosen.slice(1)) crc = spec.combine?.(crc, part.crc64, part.size) ?? crc;
  const blockIds = chosen.flatMap((p) =>
    Array.from({ length: p.blocks }, (_, i) => blockId(input.uploadId, p.partNumber, p.nonce, i)),
  );
  const stored: StoredObject = {
    etag: multipartETag(chosen.map((p) => p.etag)),
    metadata: { ...record.attrs.metadata },
    checksums: { CRC64NVME: crc },
    checksumType: 'FULL_OBJECT',
    partsCount: chosen.length,
    headers: pickHeaders(record.attrs),
  };
  const conditions = await completeConditions(up, input);
  const blob = blockBlob(up, input.bucket, input.key);
  await commit(blob, { blockIds }, stored, record.attrs.tagging, conditions, done);
  await removeUpload(up, input.bucket, input.uploadId).catch(() => {});
  return {
    bucket: input.bucket,
    key: input.key,
    etag: stored.etag,
    checksums: stored.checksums,
    checksumType: 'FULL_OBJECT',
  };
};

async function completeConditions(up: Upstream, input: CompleteMultipartUploadInput) {
  if (input.ifNoneMatch !== undefined) return { ifNoneMatch: '*' };
  if (input.ifMatch === undefined) return {};
  try {
    const props = await blockBlob(up, input.bucket, input.key).getProperties();
    if (normalizeETag(props.metadata?.[META.etag] ?? '') !== normalizeETag(input.ifMatch)) {
      throw new S3Error('PreconditionFailed');
    }
    return { ifMatch: props.etag as string };
  } catch (err) {
    if (isNotFound(err)) throw new S3Error('NoSuchKey');
    throw toS3Error(err);
  }
}

export const abortMultipartUpload: AzureOp<'abortMultipartUpload'> = async (up, _ctx, input) => {
  await readUpload(up, input.bucket, input.uploadId, input.key);
  await az(() => removeUpload(up, input.bucket, input.uploadId));
};

export const listParts: AzureOp<'listParts'> = async (up, _ctx, input) => {
  const record = await readUpload(up, input.bucket, input.uploadId, input.key);
  const marker = input.partNumberMarker ?? 0;
  const all = (await readParts(up, input.bucket, input.uploadId)).filter((p) => p.partNumber > marker);
  const page = all.slice(0, input.maxParts);
  const out: ListPartsOutput = {
    bucket: input.bucket,
    key: record.key,
    uploadId: input.uploadId,
    parts: page.map((p) => ({
      partNumber: p.partNumber,
      etag: p.etag,
      size: p.size,
      lastModified: p.lastModified,
      ...(Object.keys(p.checksums).length > 0 ? { checksums: p.checksums } : {}),
    })),
    partNumberMarker: marker,
    maxParts: input.maxParts,
    isTruncated: all.length > page.length,
    storageClass: 'STANDARD',
    ...(record.checksumAlgorithm ? { checksumAlgorithm: record.checksumAlgorithm } : {}),
  };
  const last = page.at(-1);
  if (out.isTruncated && last) out.nextPartNumberMarker = last.partNumber;
  return out;
};

export const listMultipartUploads: AzureOp<'listMultipartUploads'> = async (up, _ctx, input) => {
  await az(() => container(up, input.bucket).getProperties());
  return pageUploads(input, await listUploadRecords(up, input.bucket));
};
