// The object half of the in-memory backend: buckets, objects, listing and tagging over MemStore,
// with S3's checks (key and metadata limits, conditions, ranges, part numbers). It favours
// obviousness over speed: whole objects live in Buffers. MemoryBackend (backend.ts) adds bucket
// configuration, multipart and what the gateway's tests look into.

import { Readable } from 'node:stream';
import {
  type CopyObjectInput,
  type CopyObjectOutput,
  type CreateBucketInput,
  checkConditions,
  checkNotCopyToItself,
  compareKeys,
  type DeleteObjectInput,
  type DeleteObjectOutput,
  type DeleteObjectsInput,
  type DeleteObjectsOutput,
  digestStream,
  type GetObjectInput,
  type GetObjectOutput,
  type HeadBucketOutput,
  type HeadObjectInput,
  type HeadObjectOutput,
  type ListBucketsInput,
  type ListBucketsOutput,
  type ListedObject,
  type ListObjectsOutput,
  type ListObjectsV1Input,
  type ListObjectsV2Input,
  type ListObjectVersionsInput,
  type ListObjectVersionsOutput,
  md5ETag,
  type ObjectKey,
  type PutObjectInput,
  type PutObjectOutput,
  type RequestContext,
  type ResolvedRange,
  resolveRange,
  S3Error,
  type TagSet,
  UnsupportedBackend,
  unversionedPage,
} from '@vgwrdma/backend-contract';
import { listPage } from './listing.js';
import { checkKey, checkMetadata, type MemBucket, type MemObject, MemStore, pickHeaders } from './store.js';

type Ctx = RequestContext;

export class MemoryObjects extends UnsupportedBackend {
  override readonly name = 'memory';
  protected readonly store = new MemStore();

  // ---- buckets ----

  override async listBuckets(_ctx: Ctx, input: ListBucketsInput): Promise<ListBucketsOutput> {
    const buckets = [...this.store.buckets.values()]
      .filter((b) => input.owner === undefined || b.owner === input.owner)
      .filter((b) => b.name.startsWith(input.prefix ?? ''))
      .sort((a, b) => compareKeys(a.name, b.name))
      .map((b) => ({ name: b.name, creationDate: b.created, owner: b.owner }));
    return { buckets };
  }

  override async createBucket(_ctx: Ctx, input: CreateBucketInput): Promise<void> {
    const existing = this.store.buckets.get(input.bucket);
    if (existing)
      throw new S3Error(existing.owner === input.owner ? 'BucketAlreadyOwnedByYou' : 'BucketAlreadyExists');
    this.store.buckets.set(input.bucket, {
      name: input.bucket,
      owner: input.owner,
      created: new Date(),
      objects: new Map(),
      uploads: new Map(),
      completed: new Map(),
      acl: input.acl,
      ...(input.ownership ? { ownership: input.ownership } : {}),
      ...(input.objectLockEnabled ? { lock: { Enabled: true } } : {}),
    });
  }

  override async headBucket(_ctx: Ctx, bucket: string): Promise<HeadBucketOutput> {
    this.store.bucket(bucket);
    return {};
  }

  override async deleteBucket(_ctx: Ctx, bucket: string): Promise<void> {
    if (this.store.bucket(bucket).objects.size > 0) throw new S3Error('BucketNotEmpty');
    this.store.buckets.delete(bucket);
  }

  // ---- objects ----

  override async putObject(_ctx: Ctx, input: PutObjectInput): Promise<PutObjectOutput> {
    const bucket = this.store.bucket(input.bucket);
    checkKey(input.key);
    checkMetadata(input.metadata);
    // Reads, hashes and verifies the whole body before anything is stored: a failing stream or
    // a bad digest rejects here and leaves the bucket untouched.
    const body = await digestStream(input.body, {
      checksum: input.checksum,
      contentMD5: input.contentMD5,
      contentLength: input.contentLength,
    });
    // Conditional writes are judged against the object as it is at commit time.
    const existing = bucket.objects.get(input.key);
    if (input.ifMatch !== undefined) {
      if (!existing) throw new S3Error('NoSuchKey');
      checkConditions({ ifMatch: input.ifMatch }, existing, false);
    }
    if (input.ifNoneMatch !== undefined && existing)
      checkConditions({ ifNoneMatch: input.ifNoneMatch }, existing, false);
    const obj: MemObject = {
      data: body.data,
      size: body.size,
      etag: body.etag,
      lastModified: new Date(),
      metadata: { ...input.metadata },
      headers: pickHeaders(input),
      checksums: body.checksums,
      tags: { ...input.tagging },
    };
    if (body.checksumType) obj.checksumType = body.checksumType;
    bucket.objects.set(input.key, obj);
    const out: PutObjectOutput = { etag: obj.etag, size: obj.size, checksums: obj.checksums };
    if (obj.checksumType) out.checksumType = obj.checksumType;
    return out;
  }

  override async headObject(_ctx: Ctx, input: HeadObjectInput): Promise<HeadObjectOutput> {
    const obj = this.store.object(input.bucket, input.key);
    checkConditions(input.conditions, obj, true);
    const out: HeadObjectOutput = {
      ...obj.headers,
      key: input.key,
      etag: obj.etag,
      size: obj.size,
      lastModified: obj.lastModified,
      metadata: { ...obj.metadata },
      storageClass: 'STANDARD',
    };
    if (obj.partSizes) out.partsCount = obj.partSizes.length;
    if (Object.keys(obj.tags).length > 0) out.tagCount = Object.keys(obj.tags).length;
    if (input.checksumMode) {
      out.checksums = { ...obj.checksums };
      if (obj.checksumType) out.checksumType = obj.checksumType;
    }
    const range = selectRange(obj, input);
    if (range) out.range = range;
    return out;
  }

  override async getObject(ctx: Ctx, input: GetObjectInput): Promise<GetObjectOutput> {
    const head = await this.headObject(ctx, input);
    const obj = this.store.object(input.bucket, input.key);
    if (obj.open) return { ...head, body: obj.open(head.range?.start ?? 0, head.range?.end ?? obj.size - 1) };
    const bytes = head.range ? obj.data.subarray(head.range.start, head.range.end + 1) : obj.data;
    return { ...head, body: Readable.from([bytes]) };
  }

  override async deleteObject(_ctx: Ctx, input: DeleteObjectInput): Promise<DeleteObjectOutput> {
    checkKey(input.key);
    this.store.bucket(input.bucket).objects.delete(input.key);
    return {};
  }

  override async deleteObjects(_ctx: Ctx, input: DeleteObjectsInput): Promise<DeleteObjectsOutput> {
    const bucket = this.store.bucket(input.bucket);
    const out: DeleteObjectsOutput = { deleted: [], errors: [] };
    for (const { key } of input.objects) {
      bucket.objects.delete(key);
      out.deleted.push({ key });
    }
    return out;
  }

  override async copyObject(_ctx: Ctx, input: CopyObjectInput): Promise<CopyObjectOutput> {
    const src = this.store.object(input.source.bucket, input.source.key);
    checkConditions(input.source.conditions, src, false);
    const dest = this.store.bucket(input.bucket);
    checkKey(input.key);
    const replace = input.metadataDirective === 'REPLACE';
    checkNotCopyToItself(input);
    if (replace) checkMetadata(input.metadata);
    if (src.open) throw S3Error.custom('NotImplemented', 'a synthetic object cannot be copied');
    const obj: MemObject = {
      data: src.data,
      size: src.size,
      // A copy is a new single-part object: a multipart source's ETag does not carry over.
      etag: src.partSizes ? md5ETag(src.data) : src.etag,
      lastModified: new Date(),
      metadata: replace ? { ...input.metadata } : { ...src.metadata },
      headers: replace ? pickHeaders(input) : { ...src.headers },
      checksums: { ...src.checksums },
      tags: input.taggingDirective === 'REPLACE' ? { ...input.tagging } : { ...src.tags },
    };
    if (src.checksumType) obj.checksumType = src.checksumType;
    dest.objects.set(input.key, obj);
    return { etag: obj.etag, lastModified: obj.lastModified, checksums: obj.checksums };
  }

  // ---- listing ----

  override async listObjects(_ctx: Ctx, input: ListObjectsV1Input): Promise<ListObjectsOutput> {
    const out = this.list(input.bucket, input, input.marker);
    if (out.isTruncated && out.nextContinuationToken !== undefined)
      out.nextMarker = out.nextContinuationToken;
    delete out.nextContinuationToken;
    return out;
  }

  override async listObjectsV2(_ctx: Ctx, input: ListObjectsV2Input): Promise<ListObjectsOutput> {
    const after =
      input.continuationToken !== undefined ? decodeToken(input.continuationToken) : input.startAfter;
    const out = this.list(input.bucket, input, after);
    if (out.nextContinuationToken !== undefined)
      out.nextContinuationToken = encodeToken(out.nextContinuationToken);
    return out;
  }

  override async listObjectVersions(
    _ctx: Ctx,
    input: ListObjectVersionsInput,
  ): Promise<ListObjectVersionsOutput> {
    const bucket = this.store.bucket(input.bucket);
    const page = listPage(bucket.objects.keys(), { ...input, after: input.keyMarker });
    return unversionedPage(
      page,
      // An unversioned bucket's objects each have one version, the "null" version.
      page.keys.map((key) => listedObject(bucket, key)),
    );
  }

  private list(
    bucketName: string,
    input: ListObjectsV1Input | ListObjectsV2Input,
    after: string | undefined,
  ): ListObjectsOutput {
    const bucket = this.store.bucket(bucketName);
    const page = listPage(bucket.objects.keys(), {
      prefix: input.prefix,
      delimiter: input.delimiter,
      after,
      maxKeys: input.maxKeys,
    });
    const out: ListObjectsOutput = {
      contents: page.keys.map((key) => listedObject(bucket, key)),
      commonPrefixes: page.commonPrefixes,
      isTruncated: page.isTruncated,
    };
    if (page.isTruncated && page.last !== undefined) out.nextContinuationToken = page.last;
    return out;
  }

  // ---- tagging ----

  override async getObjectTagging(_ctx: Ctx, input: ObjectKey): Promise<TagSet> {
    return { ...this.store.object(input.bucket, input.key).tags };
  }

  override async putObjectTagging(_ctx: Ctx, input: ObjectKey, tags: TagSet): Promise<void> {
    this.store.object(input.bucket, input.key).tags = { ...tags };
  }

  override async deleteObjectTagging(_ctx: Ctx, input: ObjectKey): Promise<void> {
    this.store.object(input.bucket, input.key).tags = {};
  }
}

/** The bytes a Range header or a partNumber selects; undefined for the whole object. */
function selectRange(obj: MemObject, input: HeadObjectInput): ResolvedRange | undefined {
  const size = obj.size;
  if (input.range && input.partNumber !== undefined) {
    throw new S3Error('InvalidRequest', 'Cannot specify both Range header and partNumber query parameter');
  }
  if (input.range) return resolveRange(input.range, size);
  if (input.partNumber === undefined) return undefined;
  const sizes = obj.partSizes ?? [size];
  if (input.partNumber < 1 || input.partNumber > sizes.length) throw new S3Error('InvalidPartNumber');
  const start = sizes.slice(0, input.partNumber - 1).reduce((a, b) => a + b, 0);
  return { start, end: start + (sizes[input.partNumber - 1] as number) - 1, size };
}

// Continuation tokens are opaque to clients; base64 of the last key keeps them so.
const encodeToken = (last: string) => Buffer.from(last).toString('base64url');
const decodeToken = (token: string) => Buffer.from(token, 'base64url').toString();

/** An object of `bucket` as a listing shows it. */
function listedObject(bucket: MemBucket, key: string): ListedObject {
  const o = bucket.objects.get(key) as MemObject;
  return {
    key,
    lastModified: o.lastModified,
    etag: o.etag,
    size: o.size,
    storageClass: 'STANDARD',
    owner: { id: bucket.owner },
  };
}
