// The in-memory Backend the workspace's tests share: the S3 semantics of MemoryObjects (the
// conformance kit passes against it) plus bucket configuration, multipart, and what tests look
// into — the stored state (bucket(), object()), the RequestContext each call saw (lastCtx) and
// synthetic objects generated on read. Not a storage engine; the posix backend is the real one.
import { Readable } from 'node:stream';
import type {
  Backend,
  BackendMethod,
  BucketSummary,
  CreateBucketInput,
  GetObjectAttributesInput,
  GetObjectAttributesOutput,
  GetObjectInput,
  GetObjectOutput,
  MultipartOperations,
  PutObjectInput,
  PutObjectOutput,
  RequestContext,
  S3ErrorCode,
} from '@vgwrdma/backend-contract';
import { S3Error } from '@vgwrdma/backend-contract';
import { MultipartOps } from './multipart.js';
import { MemoryObjects } from './objects.js';
import type { MemBucket, MemObject } from './store.js';

type Ctx = RequestContext;

/**
 * The bucket configurations kept as given: the Backend's get and put methods of each, the
 * MemBucket field, and S3's error when none is stored (without one, the stored value is the answer).
 */
const STORED_CONFIG = [
  { get: 'getBucketAcl', put: 'putBucketAcl', field: 'acl' },
  { get: 'getBucketVersioning', put: 'putBucketVersioning', field: 'versioning' },
  { get: 'getBucketPolicy', put: 'putBucketPolicy', field: 'policy', missing: 'NoSuchBucketPolicy' },
  { get: 'getBucketCors', put: 'putBucketCors', field: 'cors', missing: 'NoSuchCORSConfiguration' },
  {
    get: 'getBucketOwnershipControls',
    put: 'putBucketOwnershipControls',
    field: 'ownership',
    missing: 'OwnershipControlsNotFoundError',
  },
  {
    get: 'getObjectLockConfiguration',
    put: 'putObjectLockConfiguration',
    field: 'lock',
    missing: 'ObjectLockConfigurationNotFoundError',
  },
  { get: 'getBucketTagging', put: 'putBucketTagging', field: 'tags', missing: 'NoSuchTagSet' },
] as const satisfies readonly {
  get: BackendMethod;
  put: BackendMethod;
  field: keyof MemBucket;
  missing?: S3ErrorCode;
}[];

type StoredField = (typeof STORED_CONFIG)[number]['field'];

/** Each multipart method of the Backend and the MultipartOps method that serves it. */
const MULTIPART = {
  createMultipartUpload: 'create',
  uploadPart: 'uploadPart',
  uploadPartCopy: 'uploadPartCopy',
  completeMultipartUpload: 'complete',
  abortMultipartUpload: 'abort',
  listParts: 'listParts',
  listMultipartUploads: 'listUploads',
} as const satisfies { readonly [M in keyof MultipartOperations]: keyof MultipartOps };

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

  // ---- installed from tables: bucket configuration stored as given (STORED_CONFIG; a missing one
  // is S3's "not found" error) and multipart, served by the state machine in multipart.ts ----

  static {
    const method = (
      name: BackendMethod,
      value: (this: MemoryBackend, ...args: never[]) => Promise<unknown>,
    ) => Object.defineProperty(MemoryBackend.prototype, name, { value, writable: true, configurable: true });
    for (const c of STORED_CONFIG) {
      const missing: S3ErrorCode | undefined = 'missing' in c ? c.missing : undefined;
      method(c.get, async function (this: MemoryBackend, _ctx: Ctx, bucket: string) {
        const value = this.store.bucket(bucket)[c.field];
        if (value === undefined && missing !== undefined) throw new S3Error(missing);
        return value;
      });
      method(c.put, async function (this: MemoryBackend, _ctx: Ctx, bucket: string, value: unknown) {
        (this.store.bucket(bucket) as Record<StoredField, unknown>)[c.field] = value;
      });
    }
    // Multipart: the state machine in multipart.ts (MULTIPART names the method serving each).
    for (const [name, op] of Object.entries(MULTIPART) as [BackendMethod, keyof MultipartOps][]) {
      method(name, async function (this: MemoryBackend, ctx: Ctx, input: never) {
        const serve = this.multipart[op] as (ctx: Ctx, input: never) => Promise<unknown>;
        return serve.call(this.multipart, ctx, input);
      });
    }
  }

  override async deleteBucketPolicy(_ctx: Ctx, bucket: string) {
    delete this.store.bucket(bucket).policy;
  }
}
