// Multipart uploads for the in-memory backend: parts kept per upload, Complete checks
// order, ETags and sizes, joins the parts, and combines the part CRC64NVMEs into the object's
// FULL_OBJECT checksum (the combination the checksum registry provides).
import { randomUUID } from 'node:crypto';
import {
  CHECKSUMS,
  type CompleteMultipartUploadInput,
  type CompleteMultipartUploadOutput,
  type CreateMultipartUploadInput,
  type CreateMultipartUploadOutput,
  checkConditions,
  digestStream,
  type ListMultipartUploadsInput,
  type ListMultipartUploadsOutput,
  type ListPartsInput,
  type ListPartsOutput,
  md5ETag,
  multipartETag,
  normalizeETag,
  pageUploads,
  type RequestContext,
  resolveRange,
  S3Error,
  type UploadPartCopyInput,
  type UploadPartCopyOutput,
  type UploadPartInput,
  type UploadPartOutput,
  type UploadRef,
} from '@vgwrdma/backend-contract';
import {
  checkKey,
  checkMetadata,
  type MemObject,
  type MemPart,
  type MemStore,
  pickHeaders,
} from './store.js';

type Ctx = RequestContext;
const MIN_PART_SIZE = 5 * 1024 * 1024;
const MAX_PART_NUMBER = 10_000;

function checkPartNumber(n: number): void {
  if (!Number.isInteger(n) || n < 1 || n > MAX_PART_NUMBER) {
    throw S3Error.custom('InvalidArgument', 'Part number must be an integer between 1 and 10000, inclusive');
  }
}

export class MultipartOps {
  constructor(private readonly store: MemStore) {}

  async create(_ctx: Ctx, input: CreateMultipartUploadInput): Promise<CreateMultipartUploadOutput> {
    const bucket = this.store.bucket(input.bucket);
    checkKey(input.key);
    checkMetadata(input.metadata);
    const uploadId = randomUUID();
    const { bucket: _b, key: _k, checksumAlgorithm: _a, checksumType: _t, ...attrs } = input;
    bucket.uploads.set(uploadId, {
      key: input.key,
      uploadId,
      initiated: new Date(),
      attrs,
      parts: new Map(),
    });
    return { bucket: input.bucket, key: input.key, uploadId };
  }

  async uploadPart(_ctx: Ctx, input: UploadPartInput): Promise<UploadPartOutput> {
    const upload = this.store.upload(input.bucket, input.uploadId);
    checkPartNumber(input.partNumber);
    const body = await digestStream(input.body, {
      checksum: input.checksum,
      contentMD5: input.contentMD5,
      contentLength: input.contentLength,
    });
    // Keep CRC64NVME on every part, whatever was asked, so Complete can combine it.
    const checksums = { ...body.checksums, CRC64NVME: body.checksums.CRC64NVME ?? crc64(body.data) };
    upload.parts.set(input.partNumber, {
      data: body.data,
      etag: body.etag,
      lastModified: new Date(),
      checksums,
    });
    return { etag: body.etag, size: body.size, checksums: body.checksums };
  }

  async uploadPartCopy(_ctx: Ctx, input: UploadPartCopyInput): Promise<UploadPartCopyOutput> {
    const upload = this.store.upload(input.bucket, input.uploadId);
    checkPartNumber(input.partNumber);
    const src = this.store.object(input.source.bucket, input.source.key);
    checkConditions(input.source.conditions, src, false);
    if (src.open) throw S3Error.custom('NotImplemented', 'a synthetic object cannot be copied');
    let data = src.data;
    if (input.sourceRange) {
      const { start, end } = input.sourceRange;
      const r = resolveRange({ kind: 'range', first: start, last: end }, src.size);
      if (end >= src.size) throw new S3Error('InvalidRange');
      data = src.data.subarray(r.start, r.end + 1);
    }
    const part: MemPart = {
      data,
      etag: md5ETag(data),
      lastModified: new Date(),
      checksums: { CRC64NVME: crc64(data) },
    };
    upload.parts.set(input.partNumber, part);
    return { etag: part.etag, lastModified: part.lastModified };
  }

  async complete(_ctx: Ctx, input: CompleteMultipartUploadInput): Promise<CompleteMultipartUploadOutput> {
    const bucket = this.store.bucket(input.bucket);
    const signature = input.parts.map((p) => `${p.partNumber}:${normalizeETag(p.etag)}`).join(',');
    const upload = bucket.uploads.get(input.uploadId);
    if (!upload) {
      // A repeated Complete with the same parts succeeds with the same answer.
      const done = bucket.completed.get(input.uploadId);
      if (done && done.signature === signature && done.key === input.key) {
        return { bucket: input.bucket, key: input.key, etag: done.etag };
      }
      throw new S3Error('NoSuchUpload');
    }
    const chosen: MemPart[] = [];
    for (const [i, p] of input.parts.entries()) {
      const prev = input.parts[i - 1];
      if (prev && prev.partNumber >= p.partNumber) throw new S3Error('InvalidPartOrder');
      const part = upload.parts.get(p.partNumber);
      if (!part || normalizeETag(part.etag) !== normalizeETag(p.etag)) throw new S3Error('InvalidPart');
      chosen.push(part);
    }
    if (chosen.length === 0) throw new S3Error('MalformedXML');
    for (const part of chosen.slice(0, -1)) {
      if (part.data.length < MIN_PART_SIZE) throw new S3Error('EntityTooSmall');
    }
    const spec = CHECKSUMS.CRC64NVME;
    let crc = chosen[0]?.checksums.CRC64NVME as string;
    for (const part of chosen.slice(1))
      crc = spec.combine?.(crc, part.checksums.CRC64NVME as string, part.data.length) ?? crc;
    const data = Buffer.concat(chosen.map((p) => p.data));
    const obj: MemObject = {
      data,
      size: data.length,
      etag: multipartETag(chosen.map((p) => p.etag)),
      lastModified: new Date(),
      metadata: { ...upload.attrs.metadata },
      headers: pickHeaders(upload.attrs),
      checksums: { CRC64NVME: crc },
      checksumType: 'FULL_OBJECT',
      tags: { ...upload.attrs.tagging },
      partSizes: chosen.map((p) => p.data.length),
    };
    bucket.objects.set(upload.key, obj);
    bucket.uploads.delete(input.uploadId);
    bucket.completed.set(input.uploadId, { signature, etag: obj.etag, key: upload.key });
    return {
      bucket: input.bucket,
      key: upload.key,
      etag: obj.etag,
      checksums: obj.checksums,
      checksumType: 'FULL_OBJECT',
    };
  }

  async abort(_ctx: Ctx, input: UploadRef): Promise<void> {
    this.store.upload(input.bucket, input.uploadId);
    this.store.bucket(input.bucket).uploads.delete(input.uploadId);
  }

  async listParts(_ctx: Ctx, input: ListPartsInput): Promise<ListPartsOutput> {
    const upload = this.store.upload(input.bucket, input.uploadId);
    const marker = input.partNumberMarker ?? 0;
    const all = [...upload.parts.entries()].filter(([n]) => n > marker).sort(([a], [b]) => a - b);
    const page = all.slice(0, input.maxParts);
    const out: ListPartsOutput = {
      bucket: input.bucket,
      key: upload.key,
      uploadId: input.uploadId,
      parts: page.map(([partNumber, p]) => ({
        partNumber,
        etag: p.etag,
        size: p.data.length,
        lastModified: p.lastModified,
      })),
      partNumberMarker: marker,
      maxParts: input.maxParts,
      isTruncated: all.length > page.length,
      storageClass: 'STANDARD',
    };
    const last = page.at(-1);
    if (out.isTruncated && last) out.nextPartNumberMarker = last[0];
    return out;
  }

  async listUploads(_ctx: Ctx, input: ListMultipartUploadsInput): Promise<ListMultipartUploadsOutput> {
    const bucket = this.store.bucket(input.bucket);
    const uploads = [...bucket.uploads.values()].map((u) => ({
      key: u.key,
      uploadId: u.uploadId,
      initiated: u.initiated,
    }));
    return pageUploads(input, uploads);
  }
}

function crc64(data: Buffer): string {
  const h = CHECKSUMS.CRC64NVME.create();
  h.update(data);
  return h.digest();
}
