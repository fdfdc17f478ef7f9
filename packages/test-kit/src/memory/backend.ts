// The in-memory Backend the workspace's tests share: the S3 semantics of MemoryObjects (the
// conformance kit passes against it) plus bucket configuration, multipart, and what tests look
// into — the stored state (bucket(), object()), the RequestContext each call saw (lastCtx) and
// synthetic objects generated on read. Not a storage engine; the posix backend is the real one.
import { Readable } from 'node:stream';
import type {
  Backend,
  BucketAcl,
  BucketLockConfig,
  BucketSummary,
  CreateBucketInput,
  GetObjectAttributesInput,
  GetObjectAttributesOutput,
  GetObjectInput,
  GetObjectOutput,
  ObjectOwnership,
  PutObjectInput,
  PutObjectOutput,
  RequestContext,
  TagSet,
} from '@vgwrdma/backend-contract';
import { S3Error } from '@vgwrdma/backend-contract';
import { MultipartOps } from './multipart.js';
import { MemoryObjects } from './objects.js';
import type { MemBucket, MemObject } from './store.js';

type Ctx = RequestContext;

export class MemoryBackend extends MemoryObjects implements Backend {
  /** The last RequestContext createBucket, putObject and getObject saw (what the gateway passes). */
  readonly lastCtx = new Map<string, RequestContext>();
  private readonly multipart = new MultipartOps(this.store);

  /** Every bucket by name: the stored state, for tests to check. */
  get buckets(): ReadonlyMap<string, MemBucket> {
    return this.store.buckets;
  }

  /** A bucket's stored state; NoSuchBucket when absent. */
  bucket(name: string): MemBucket {
    return this.store.bucket(name);
  }

  /** An object's stored state; NoSuchKey when absent. */
  object(bucket: string, key: string): MemObject {
    return this.store.object(bucket, key);
  }

  /** Adds an object of `size` bytes generated on read (byte i is i & 0xff), never held in memory. */
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
    this.store.bucket(bucket).objects.set(key, {
      data: Buffer.alloc(0),
      size,
      open,
      etag: '"synthetic"',
      lastModified: new Date(),
      metadata: {},
      headers: {},
      checksums: {},
      tags: {},
    });
  }

  override async createBucket(ctx: Ctx, input: CreateBucketInput): Promise<void> {
    this.lastCtx.set('createBucket', ctx);
    return super.createBucket(ctx, input);
  }

  override async putObject(ctx: Ctx, input: PutObjectInput): Promise<PutObjectOutput> {
    this.lastCtx.set('putObject', ctx);
    return super.putObject(ctx, input);
  }

  override async getObject(ctx: Ctx, input: GetObjectInput): Promise<GetObjectOutput> {
    this.lastCtx.set('getObject', ctx);
    return super.getObject(ctx, input);
  }

  override async getObjectAttributes(
    _ctx: Ctx,
    input: GetObjectAttributesInput,
  ): Promise<GetObjectAttributesOutput> {
    const o = this.store.object(input.bucket, input.key);
    return {
      etag: o.etag,
      size: o.size,
      storageClass: 'STANDARD',
      lastModified: o.lastModified,
      checksums: o.checksums,
    };
  }

  override async listBucketsAndOwners(): Promise<BucketSummary[]> {
    return [...this.store.buckets.values()].map((b) => ({
      name: b.name,
      creationDate: b.created,
      owner: b.owner,
    }));
  }

  // ---- bucket configuration: stored as given; a missing one is S3's "not found" error ----

  override async getBucketAcl(_ctx: Ctx, bucket: string) {
    return this.store.bucket(bucket).acl;
  }
  override async putBucketAcl(_ctx: Ctx, bucket: string, acl: BucketAcl) {
    this.store.bucket(bucket).acl = acl;
  }
  override async getBucketVersioning(_ctx: Ctx, bucket: string) {
    return this.store.bucket(bucket).versioning;
  }
  override async putBucketVersioning(_ctx: Ctx, bucket: string, status: 'Enabled' | 'Suspended') {
    this.store.bucket(bucket).versioning = status;
  }
  override async getBucketPolicy(_ctx: Ctx, bucket: string) {
    return found(this.store.bucket(bucket).policy, 'NoSuchBucketPolicy');
  }
  override async putBucketPolicy(_ctx: Ctx, bucket: string, policy: string) {
    this.store.bucket(bucket).policy = policy;
  }
  override async deleteBucketPolicy(_ctx: Ctx, bucket: string) {
    delete this.store.bucket(bucket).policy;
  }
  override async getBucketCors(_ctx: Ctx, bucket: string) {
    return found(this.store.bucket(bucket).cors, 'NoSuchCORSConfiguration');
  }
  override async putBucketCors(_ctx: Ctx, bucket: string, cors: string) {
    this.store.bucket(bucket).cors = cors;
  }
  override async getBucketOwnershipControls(_ctx: Ctx, bucket: string) {
    return found(this.store.bucket(bucket).ownership, 'OwnershipControlsNotFoundError');
  }
  override async putBucketOwnershipControls(_ctx: Ctx, bucket: string, ownership: ObjectOwnership) {
    this.store.bucket(bucket).ownership = ownership;
  }
  override async getObjectLockConfiguration(_ctx: Ctx, bucket: string) {
    return found(this.store.bucket(bucket).lock, 'ObjectLockConfigurationNotFoundError');
  }
  override async putObjectLockConfiguration(_ctx: Ctx, bucket: string, config: BucketLockConfig) {
    this.store.bucket(bucket).lock = config;
  }
  override async getBucketTagging(_ctx: Ctx, bucket: string) {
    return found(this.store.bucket(bucket).tags, 'NoSuchTagSet');
  }
  override async putBucketTagging(_ctx: Ctx, bucket: string, tags: TagSet) {
    this.store.bucket(bucket).tags = tags;
  }

  // ---- multipart (state machine in multipart.ts) ----

  override async createMultipartUpload(ctx: Ctx, input: Parameters<Backend['createMultipartUpload']>[1]) {
    return this.multipart.create(ctx, input);
  }
  override async uploadPart(ctx: Ctx, input: Parameters<Backend['uploadPart']>[1]) {
    return this.multipart.uploadPart(ctx, input);
  }
  override async uploadPartCopy(ctx: Ctx, input: Parameters<Backend['uploadPartCopy']>[1]) {
    return this.multipart.uploadPartCopy(ctx, input);
  }
  override async completeMultipartUpload(ctx: Ctx, input: Parameters<Backend['completeMultipartUpload']>[1]) {
    return this.multipart.complete(ctx, input);
  }
  override async abortMultipartUpload(ctx: Ctx, input: Parameters<Backend['abortMultipartUpload']>[1]) {
    return this.multipart.abort(ctx, input);
  }
  override async listParts(ctx: Ctx, input: Parameters<Backend['listParts']>[1]) {
    return this.multipart.listParts(ctx, input);
  }
  override async listMultipartUploads(ctx: Ctx, input: Parameters<Backend['listMultipartUploads']>[1]) {
    return this.multipart.listUploads(ctx, input);
  }
}

function found<T>(value: T | undefined, code: ConstructorParameters<typeof S3Error>[0]): T {
  if (value === undefined) throw new S3Error(code);
  return value;
}
