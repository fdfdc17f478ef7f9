// Multipart uploads for the memory backend.

import { Readable } from 'node:stream';
import {
  type CompleteMultipartUploadInput,
  type CreateMultipartUploadInput,
  digestStream,
  type ListMultipartUploadsInput,
  type ListPartsInput,
  multipartETag,
  type RequestContext,
  S3Error,
  type UploadPartCopyInput,
  type UploadPartInput,
  type UploadRef,
} from '@vgwrdma/s3-backend';
import type { MemoryBackend } from './memory-backend.js';
import type { MemUpload } from './memory-store.js';

export class MemoryMultipart {
  constructor(private readonly be: MemoryBackend) {}

  private upload(ref: UploadRef): MemUpload {
    const u = this.be.bucket(ref.bucket).uploads.get(ref.uploadId);
    if (!u || u.key !== ref.key) throw new S3Error('NoSuchUpload');
    return u;
  }

  async create(_ctx: RequestContext, input: CreateMultipartUploadInput) {
    const b = this.be.bucket(input.bucket);
    const id = this.be.newId();
    b.uploads.set(id, {
      key: input.key,
      id,
      initiated: new Date(),
      metadata: input.metadata ?? {},
      tags: input.tagging ?? {},
      parts: new Map(),
      ...(input.contentType ? { contentType: input.contentType } : {}),
      ...(input.checksumAlgorithm ? { checksumAlgorithm: input.checksumAlgorithm } : {}),
      ...(input.checksumType ? { checksumType: input.checksumType } : {}),
    });
    return { bucket: input.bucket, key: input.key, uploadId: id };
  }

  async uploadPart(_ctx: RequestContext, input: UploadPartInput) {
    const u = this.upload(input);
    const d = await digestStream(input.body, {
      checksum: input.checksum,
      contentMD5: input.contentMD5,
      contentLength: input.contentLength,
      defaultAlgorithm: null,
    });
    u.parts.set(input.partNumber, {
      data: d.data,
      etag: d.etag,
      lastModified: new Date(),
      checksums: d.checksums,
    });
    return { etag: d.etag, size: d.size, checksums: d.checksums };
  }

  async uploadPartCopy(_ctx: RequestContext, input: UploadPartCopyInput) {
    const u = this.upload(input);
    const src = this.be.object(input.source.bucket, input.source.key);
    if (!Buffer.isBuffer(src.data)) throw new S3Error('NotImplemented');
    const r = input.sourceRange;
    if (r && r.end >= src.size) throw new S3Error('InvalidRange');
    const data = r ? src.data.subarray(r.start, r.end + 1) : src.data;
    const d = await digestStream(Readable.from([data]), { defaultAlgorithm: null });
    const lastModified = new Date();
    u.parts.set(input.partNumber, { data: d.data, etag: d.etag, lastModified, checksums: {} });
    return { etag: d.etag, lastModified };
  }

  async complete(_ctx: RequestContext, input: CompleteMultipartUploadInput) {
    const u = this.upload(input);
    const datas: Buffer[] = [];
    let prev = 0;
    for (const p of input.parts) {
      if (p.partNumber <= prev) throw new S3Error('InvalidPartOrder');
      prev = p.partNumber;
      const stored = u.parts.get(p.partNumber);
      if (!stored || stored.etag.replace(/"/g, '') !== p.etag.replace(/"/g, ''))
        throw new S3Error('InvalidPart');
      datas.push(stored.data);
    }
    const data = Buffer.concat(datas);
    const etag = multipartETag(input.parts.map((p) => p.etag));
    this.be.bucket(input.bucket).objects.set(input.key, {
      data,
      size: data.length,
      etag,
      lastModified: new Date(),
      metadata: u.metadata,
      checksums: {},
      tags: u.tags,
      parts: datas.map((d) => d.length),
      ...(u.contentType ? { contentType: u.contentType } : {}),
    });
    this.be.bucket(input.bucket).uploads.delete(input.uploadId);
    return { bucket: input.bucket, key: input.key, etag };
  }

  async abort(_ctx: RequestContext, ref: UploadRef) {
    this.upload(ref);
    this.be.bucket(ref.bucket).uploads.delete(ref.uploadId);
  }

  async listParts(_ctx: RequestContext, input: ListPartsInput) {
    const u = this.upload(input);
    const marker = input.partNumberMarker ?? 0;
    const all = [...u.parts.entries()].filter(([n]) => n > marker).sort(([a], [b]) => a - b);
    const page = all.slice(0, input.maxParts);
    const isTruncated = all.length > page.length;
    const lastPart = page[page.length - 1];
    return {
      bucket: input.bucket,
      key: input.key,
      uploadId: input.uploadId,
      parts: page.map(([n, p]) => ({
        partNumber: n,
        etag: p.etag,
        size: p.data.length,
        lastModified: p.lastModified,
      })),
      partNumberMarker: marker,
      maxParts: input.maxParts,
      isTruncated,
      storageClass: 'STANDARD',
      ...(isTruncated && lastPart ? { nextPartNumberMarker: lastPart[0] } : {}),
    };
  }

  async listUploads(_ctx: RequestContext, input: ListMultipartUploadsInput) {
    const b = this.be.bucket(input.bucket);
    const uploads = [...b.uploads.values()]
      .filter((u) => !input.prefix || u.key.startsWith(input.prefix))
      .sort((a, c) => (a.key < c.key ? -1 : a.key > c.key ? 1 : 0))
      .map((u) => ({ key: u.key, uploadId: u.id, initiated: u.initiated, storageClass: 'STANDARD' }));
    return {
      bucket: input.bucket,
      uploads,
      commonPrefixes: [],
      isTruncated: false,
      maxUploads: input.maxUploads,
    };
  }
}
