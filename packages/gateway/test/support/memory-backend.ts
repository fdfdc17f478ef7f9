// A small in-memory Backend for the gateway's HTTP tests: enough S3 semantics (checksums via
// digestStream, ranges, parts, conditions, listing, multipart) to check what the gateway sends
// and answers. Not a conformance reference; the posix backend is the real one.
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import {
  type Backend,
  type BucketAcl,
  type BucketSummary,
  type CopyObjectInput,
  type CreateBucketInput,
  checkConditions,
  type DeleteObjectsInput,
  digestStream,
  type GetObjectAttributesInput,
  type GetObjectAttributesOutput,
  type GetObjectInput,
  type GetObjectOutput,
  type HeadObjectOutput,
  type ListBucketsInput,
  type ListObjectsOutput,
  type ListObjectsV1Input,
  type ListObjectsV2Input,
  type ListObjectVersionsInput,
  type ObjectKey,
  type PutObjectInput,
  type RequestContext,
  resolveRange,
  S3Error,
  type TagSet,
  UnsupportedBackend,
} from '@vgwrdma/s3-backend';
import { listPage } from './memory-listing.js';
import { MemoryMultipart } from './memory-multipart.js';
import type { MemBucket, MemObject } from './memory-store.js';

export class MemoryBackend extends UnsupportedBackend implements Backend {
  override readonly name = 'memory';
  readonly buckets = new Map<string, MemBucket>();
  /** The last RequestContext each method saw (tests check what the gateway passes). */
  readonly lastCtx = new Map<string, RequestContext>();
  private readonly mp = new MemoryMultipart(this);

  bucket(name: string): MemBucket {
    const b = this.buckets.get(name);
    if (!b) throw new S3Error('NoSuchBucket', undefined, { detail: { BucketName: name } });
    return b;
  }

  object(bucket: string, key: string): MemObject {
    const o = this.bucket(bucket).objects.get(key);
    if (!o) throw new S3Error('NoSuchKey', undefined, { detail: { Key: key } });
    return o;
  }

  /** Adds a synthetic object whose bytes are generated on read (i & 0xff at offset i). */
  putSynthetic(bucket: string, key: string, size: number, onProduce?: (bytes: number) => void): void {
    const open = (start: number, end: number): Readable => {
      let pos = start;
      return new Readable({
        highWaterMark: 64 * 1024,
        read() {
          if (pos > end) return void this.push(null);
          const n = Math.min(64 * 1024, end - pos + 1);
          const chunk = Buffer.allocUnsafe(n);
          for (let i = 0; i < n; i++) chunk[i] = (pos + i) & 0xff;
          pos += n;
          onProduce?.(n);
          this.push(chunk);
        },
      });
    };
    this.bucket(bucket).objects.set(key, {
      data: { size, open },
      size,
      etag: '"synthetic"',
      lastModified: new Date(),
      metadata: {},
      checksums: {},
      tags: {},
    });
  }

  override async listBuckets(_ctx: RequestContext, input: ListBucketsInput) {
    const buckets = [...this.buckets.values()]
      .filter((b) => input.owner === undefined || b.owner === input.owner)
      .filter((b) => !input.prefix || b.name.startsWith(input.prefix))
      .sort((a, b) => (a.name < b.name ? -1 : 1))
      .map((b) => ({ name: b.name, creationDate: b.created }));
    return { buckets };
  }

  override async createBucket(ctx: RequestContext, input: CreateBucketInput) {
    this.lastCtx.set('createBucket', ctx);
    const existing = this.buckets.get(input.bucket);
    if (existing)
      throw new S3Error(existing.owner === input.owner ? 'BucketAlreadyOwnedByYou' : 'BucketAlreadyExists');
    this.buckets.set(input.bucket, {
      name: input.bucket,
      owner: input.owner,
      created: new Date(),
      acl: input.acl,
      objects: new Map(),
      uploads: new Map(),
      ...(input.ownership ? { ownership: input.ownership } : {}),
      ...(input.objectLockEnabled ? { lock: { Enabled: true } } : {}),
    });
  }

  override async headBucket(_ctx: RequestContext, bucket: string) {
    this.bucket(bucket);
    return {};
  }

  override async deleteBucket(_ctx: RequestContext, bucket: string) {
    if (this.bucket(bucket).objects.size > 0) throw new S3Error('BucketNotEmpty');
    this.buckets.delete(bucket);
  }

  override async putObject(ctx: RequestContext, input: PutObjectInput) {
    this.lastCtx.set('putObject', ctx);
    const b = this.bucket(input.bucket);
    const existing = b.objects.get(input.key);
    if (input.ifNoneMatch === '*' && existing) throw new S3Error('PreconditionFailed');
    const d = await digestStream(input.body, {
      checksum: input.checksum,
      contentMD5: input.contentMD5,
      contentLength: input.contentLength,
    });
    const obj: MemObject = {
      data: d.data,
      size: d.size,
      etag: d.etag,
      lastModified: new Date(),
      metadata: input.metadata ?? {},
      checksums: d.checksums,
      tags: input.tagging ?? {},
      ...contentOf(input),
      ...(d.checksumType ? { checksumType: d.checksumType } : {}),
    };
    b.objects.set(input.key, obj);
    return {
      etag: d.etag,
      size: d.size,
      checksums: d.checksums,
      ...(d.checksumType ? { checksumType: d.checksumType } : {}),
    };
  }

  private info(key: string, o: MemObject, input: GetObjectInput): HeadObjectOutput {
    checkConditions(input.conditions, o);
    const out: HeadObjectOutput = {
      ...contentOf(o),
      key,
      etag: o.etag,
      size: o.size,
      lastModified: o.lastModified,
      metadata: o.metadata,
      tagCount: Object.keys(o.tags).length,
      ...(input.checksumMode ? { checksums: o.checksums } : {}),
      ...(o.checksumType ? { checksumType: o.checksumType } : {}),
      ...(o.parts ? { partsCount: o.parts.length } : {}),
    };
    if (input.partNumber !== undefined) {
      const sizes = o.parts ?? [o.size];
      if (input.partNumber > sizes.length) throw new S3Error('InvalidPartNumber');
      const start = sizes.slice(0, input.partNumber - 1).reduce((a, s) => a + s, 0);
      out.range = { start, end: start + (sizes[input.partNumber - 1] ?? 0) - 1, size: o.size };
    } else if (input.range) {
      out.range = resolveRange(input.range, o.size);
    }
    return out;
  }

  override async headObject(_ctx: RequestContext, input: GetObjectInput) {
    return this.info(input.key, this.object(input.bucket, input.key), input);
  }

  override async getObject(ctx: RequestContext, input: GetObjectInput): Promise<GetObjectOutput> {
    this.lastCtx.set('getObject', ctx);
    const o = this.object(input.bucket, input.key);
    const info = this.info(input.key, o, input);
    const start = info.range?.start ?? 0;
    const end = info.range?.end ?? o.size - 1;
    const body = Buffer.isBuffer(o.data)
      ? Readable.from([o.data.subarray(start, end + 1)])
      : o.data.open(start, end);
    return { ...info, body };
  }

  override async deleteObject(_ctx: RequestContext, input: ObjectKey) {
    this.bucket(input.bucket).objects.delete(input.key);
    return {};
  }

  override async deleteObjects(_ctx: RequestContext, input: DeleteObjectsInput) {
    const b = this.bucket(input.bucket);
    for (const o of input.objects) b.objects.delete(o.key);
    return { deleted: input.objects.map((o) => ({ key: o.key })), errors: [] };
  }

  override async copyObject(_ctx: RequestContext, input: CopyObjectInput) {
    const src = this.object(input.source.bucket, input.source.key);
    checkConditions(input.source.conditions, src, false);
    const replace = input.metadataDirective === 'REPLACE';
    const copy: MemObject = {
      ...src,
      lastModified: new Date(),
      ...(replace ? { metadata: input.metadata ?? {}, ...contentOf(input) } : {}),
    };
    this.bucket(input.bucket).objects.set(input.key, copy);
    return { etag: copy.etag, lastModified: copy.lastModified, checksums: copy.checksums };
  }

  override async listObjects(_ctx: RequestContext, input: ListObjectsV1Input): Promise<ListObjectsOutput> {
    return listPage(this.bucket(input.bucket), input, input.marker);
  }

  override async listObjectsV2(_ctx: RequestContext, input: ListObjectsV2Input): Promise<ListObjectsOutput> {
    const after = input.continuationToken
      ? Buffer.from(input.continuationToken, 'base64url').toString()
      : input.startAfter;
    const page = listPage(this.bucket(input.bucket), input, after);
    if (page.nextMarker) page.nextContinuationToken = Buffer.from(page.nextMarker).toString('base64url');
    return page;
  }

  override async listObjectVersions(_ctx: RequestContext, input: ListObjectVersionsInput) {
    const page = listPage(this.bucket(input.bucket), input, input.keyMarker);
    return {
      versions: page.contents.map((o) => ({ ...o, versionId: 'null', isLatest: true })),
      deleteMarkers: [],
      commonPrefixes: page.commonPrefixes,
      isTruncated: page.isTruncated,
      ...(page.nextMarker ? { nextKeyMarker: page.nextMarker, nextVersionIdMarker: 'null' } : {}),
    };
  }

  override async getObjectAttributes(
    _ctx: RequestContext,
    input: GetObjectAttributesInput,
  ): Promise<GetObjectAttributesOutput> {
    const o = this.object(input.bucket, input.key);
    return {
      etag: o.etag,
      size: o.size,
      storageClass: 'STANDARD',
      lastModified: o.lastModified,
      checksums: o.checksums,
    };
  }

  override async getObjectTagging(_ctx: RequestContext, input: ObjectKey) {
    return this.object(input.bucket, input.key).tags;
  }
  override async putObjectTagging(_ctx: RequestContext, input: ObjectKey, tags: TagSet) {
    this.object(input.bucket, input.key).tags = tags;
  }
  override async deleteObjectTagging(_ctx: RequestContext, input: ObjectKey) {
    this.object(input.bucket, input.key).tags = {};
  }

  override async getBucketVersioning(_ctx: RequestContext, bucket: string) {
    return this.bucket(bucket).versioning;
  }
  override async putBucketVersioning(_ctx: RequestContext, bucket: string, status: 'Enabled' | 'Suspended') {
    this.bucket(bucket).versioning = status;
  }
  override async getBucketPolicy(_ctx: RequestContext, bucket: string) {
    const p = this.bucket(bucket).policy;
    if (p === undefined) throw new S3Error('NoSuchBucketPolicy');
    return p;
  }
  override async putBucketPolicy(_ctx: RequestContext, bucket: string, policy: string) {
    this.bucket(bucket).policy = policy;
  }
  override async deleteBucketPolicy(_ctx: RequestContext, bucket: string) {
    delete this.bucket(bucket).policy;
  }
  override async getBucketCors(_ctx: RequestContext, bucket: string) {
    const v = this.bucket(bucket).cors;
    if (v === undefined) throw new S3Error('NoSuchCORSConfiguration');
    return v;
  }
  override async putBucketCors(_ctx: RequestContext, bucket: string, cors: string) {
    this.bucket(bucket).cors = cors;
  }
  override async getBucketOwnershipControls(_ctx: RequestContext, bucket: string) {
    const v = this.bucket(bucket).ownership;
    if (v === undefined) throw new S3Error('OwnershipControlsNotFoundError');
    return v;
  }
  override async putBucketOwnershipControls(
    _ctx: RequestContext,
    bucket: string,
    o: 'BucketOwnerEnforced' | 'BucketOwnerPreferred' | 'ObjectWriter',
  ) {
    this.bucket(bucket).ownership = o;
  }
  override async getObjectLockConfiguration(_ctx: RequestContext, bucket: string) {
    const v = this.bucket(bucket).lock;
    if (v === undefined) throw new S3Error('ObjectLockConfigurationNotFoundError');
    return v;
  }
  override async putObjectLockConfiguration(
    _ctx: RequestContext,
    bucket: string,
    cfg: import('@vgwrdma/s3-backend').BucketLockConfig,
  ) {
    this.bucket(bucket).lock = cfg;
  }
  override async getBucketTagging(_ctx: RequestContext, bucket: string) {
    const t = this.bucket(bucket).tags;
    if (!t) throw new S3Error('NoSuchTagSet');
    return t;
  }
  override async putBucketTagging(_ctx: RequestContext, bucket: string, tags: TagSet) {
    this.bucket(bucket).tags = tags;
  }
  override async getBucketAcl(_ctx: RequestContext, bucket: string) {
    return this.bucket(bucket).acl;
  }
  override async putBucketAcl(_ctx: RequestContext, bucket: string, acl: BucketAcl) {
    this.bucket(bucket).acl = acl;
  }

  override async listBucketsAndOwners(): Promise<BucketSummary[]> {
    return [...this.buckets.values()].map((b) => ({ name: b.name, creationDate: b.created, owner: b.owner }));
  }

  override async createMultipartUpload(
    ctx: RequestContext,
    i: Parameters<Backend['createMultipartUpload']>[1],
  ) {
    return this.mp.create(ctx, i);
  }
  override async uploadPart(ctx: RequestContext, i: Parameters<Backend['uploadPart']>[1]) {
    return this.mp.uploadPart(ctx, i);
  }
  override async uploadPartCopy(ctx: RequestContext, i: Parameters<Backend['uploadPartCopy']>[1]) {
    return this.mp.uploadPartCopy(ctx, i);
  }
  override async completeMultipartUpload(
    ctx: RequestContext,
    i: Parameters<Backend['completeMultipartUpload']>[1],
  ) {
    return this.mp.complete(ctx, i);
  }
  override async abortMultipartUpload(
    ctx: RequestContext,
    i: Parameters<Backend['abortMultipartUpload']>[1],
  ) {
    return this.mp.abort(ctx, i);
  }
  override async listParts(ctx: RequestContext, i: Parameters<Backend['listParts']>[1]) {
    return this.mp.listParts(ctx, i);
  }
  override async listMultipartUploads(
    ctx: RequestContext,
    i: Parameters<Backend['listMultipartUploads']>[1],
  ) {
    return this.mp.listUploads(ctx, i);
  }

  // Multipart is in memory-multipart.ts to keep this file to one idea.
  newId(): string {
    return randomUUID();
  }
}

function contentOf(src: import('@vgwrdma/s3-backend').ContentHeaders) {
  const out: import('@vgwrdma/s3-backend').ContentHeaders = {};
  for (const k of [
    'contentType',
    'contentEncoding',
    'contentLanguage',
    'contentDisposition',
    'cacheControl',
    'expires',
  ] as const) {
    const v = src[k];
    if (v !== undefined) out[k] = v;
  }
  return out;
}
