// S3Backend: the Backend contract forwarded to an upstream S3 store (AWS S3, Ceph RGW, MinIO,
// another gateway) with @aws-sdk/client-s3 over one pool of keep-alive connections. Bodies stream
// both ways; upstream errors come back as the same S3Error codes; bucket ACL, policy, CORS and
// website live in an optional meta bucket. Each method is one line: the work is in ./ops.
import { HeadBucketCommand } from '@aws-sdk/client-s3';
import type {
  BucketAcl,
  BucketLockConfig,
  BucketSummary,
  CompleteMultipartUploadInput,
  CopyObjectInput,
  CreateBucketInput,
  CreateMultipartUploadInput,
  RequestContext as Ctx,
  DeleteObjectInput,
  DeleteObjectsInput,
  GetObjectAttributesInput,
  GetObjectInput,
  HeadObjectInput,
  ListBucketsInput,
  ListMultipartUploadsInput,
  ListObjectsV1Input,
  ListObjectsV2Input,
  ListObjectVersionsInput,
  ListPartsInput,
  ObjectAclOutput,
  ObjectKey,
  ObjectOwnership,
  ObjectRetention,
  PutObjectInput,
  TagSet,
  UploadPartCopyInput,
  UploadPartInput,
  UploadRef,
  VersioningStatus,
} from '@vgwrdma/s3-backend';
import { UnsupportedBackend } from '@vgwrdma/s3-backend';
import { createUpstreamClients, type UpstreamClients } from './client.js';
import { MetaBucket } from './meta-bucket.js';
import * as cfg from './ops/bucket-config.js';
import * as buckets from './ops/buckets.js';
import * as listing from './ops/listing.js';
import * as mp from './ops/multipart.js';
import { getObjectAttributes } from './ops/object-attributes.js';
import * as oc from './ops/object-config.js';
import * as objects from './ops/objects.js';
import type { S3BackendOptions } from './options.js';
import { spoolConfig } from './spool/spool-config.js';
import { UploadTagging } from './upload-tagging.js';
import type { Upstream } from './upstream.js';

/** Start-up failure: the meta bucket named in the options is not there (or not reachable). */
export class MetaBucketMissingError extends Error {
  constructor(
    readonly bucket: string,
    options?: { cause?: unknown },
  ) {
    super(
      `the meta bucket "${bucket}" does not exist upstream (or cannot be reached): create it first`,
      options,
    );
    this.name = 'MetaBucketMissingError';
  }
}

export class S3Backend extends UnsupportedBackend {
  override readonly name = 's3';
  private readonly clients: UpstreamClients;
  private readonly up: Upstream;
  private closed = false;

  /** Builds the backend without touching the network; `open()` also checks the meta bucket. */
  constructor(readonly options: S3BackendOptions = {}) {
    super();
    const spool = spoolConfig(options); // a bad size throws before any socket is opened
    this.clients = createUpstreamClients(options);
    const { client, streamClient } = this.clients;
    const meta = options.metaBucket ? new MetaBucket(client, options.metaBucket) : undefined;
    this.up = { client, streamClient, meta, options, spool, uploadTagging: new UploadTagging(meta) };
  }

  /** A backend whose meta bucket (when one is named) is known to exist upstream. */
  static async open(options: S3BackendOptions = {}): Promise<S3Backend> {
    const backend = new S3Backend(options);
    if (options.metaBucket) {
      try {
        await backend.clients.client.send(new HeadBucketCommand({ Bucket: options.metaBucket }));
      } catch (err) {
        await backend.shutdown();
        throw new MetaBucketMissingError(options.metaBucket, { cause: err });
      }
    }
    return backend;
  }

  override async shutdown(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.clients.destroy();
  }

  // Buckets and ownership
  override listBuckets(ctx: Ctx, i: ListBucketsInput) {
    return buckets.listBuckets(this.up, ctx, i);
  }
  override createBucket(ctx: Ctx, i: CreateBucketInput) {
    return buckets.createBucket(this.up, ctx, i);
  }
  override headBucket(ctx: Ctx, b: string) {
    return buckets.headBucket(this.up, ctx, b);
  }
  override deleteBucket(ctx: Ctx, b: string) {
    return buckets.deleteBucket(this.up, ctx, b);
  }
  override getBucketAcl(ctx: Ctx, b: string) {
    return buckets.getBucketAcl(this.up, ctx, b);
  }
  override putBucketAcl(ctx: Ctx, b: string, acl: BucketAcl) {
    return buckets.putBucketAcl(this.up, ctx, b, acl);
  }
  override changeBucketOwner(ctx: Ctx, b: string, owner: string) {
    return buckets.changeBucketOwner(this.up, ctx, b, owner);
  }
  override listBucketsAndOwners(ctx: Ctx): Promise<BucketSummary[]> {
    return buckets.listBucketsAndOwners(this.up, ctx);
  }

  // Bucket configuration
  override getBucketVersioning(ctx: Ctx, b: string) {
    return cfg.getBucketVersioning(this.up, ctx, b);
  }
  override putBucketVersioning(ctx: Ctx, b: string, s: VersioningStatus) {
    return cfg.putBucketVersioning(this.up, ctx, b, s);
  }
  override getBucketPolicy(ctx: Ctx, b: string) {
    return cfg.getStored(this.up, ctx, 'policy', b);
  }
  override putBucketPolicy(ctx: Ctx, b: string, p: string) {
    return cfg.putStored(this.up, ctx, 'policy', b, p);
  }
  override deleteBucketPolicy(ctx: Ctx, b: string) {
    return cfg.deleteStored(this.up, ctx, 'policy', b);
  }
  override getBucketCors(ctx: Ctx, b: string) {
    return cfg.getStored(this.up, ctx, 'cors', b);
  }
  override putBucketCors(ctx: Ctx, b: string, c: string) {
    return cfg.putStored(this.up, ctx, 'cors', b, c);
  }
  override deleteBucketCors(ctx: Ctx, b: string) {
    return cfg.deleteStored(this.up, ctx, 'cors', b);
  }
  override getBucketWebsite(ctx: Ctx, b: string) {
    return cfg.getStored(this.up, ctx, 'website', b);
  }
  override putBucketWebsite(ctx: Ctx, b: string, w: string) {
    return cfg.putStored(this.up, ctx, 'website', b, w);
  }
  override deleteBucketWebsite(ctx: Ctx, b: string) {
    return cfg.deleteStored(this.up, ctx, 'website', b);
  }
  override getBucketOwnershipControls(ctx: Ctx, b: string) {
    return cfg.getBucketOwnershipControls(this.up, ctx, b);
  }
  override putBucketOwnershipControls(ctx: Ctx, b: string, o: ObjectOwnership) {
    return cfg.putBucketOwnershipControls(this.up, ctx, b, o);
  }
  override deleteBucketOwnershipControls(ctx: Ctx, b: string) {
    return cfg.deleteBucketOwnershipControls(this.up, ctx, b);
  }
  override getBucketTagging(ctx: Ctx, b: string) {
    return cfg.getBucketTagging(this.up, ctx, b);
  }
  override putBucketTagging(ctx: Ctx, b: string, t: TagSet) {
    return cfg.putBucketTagging(this.up, ctx, b, t);
  }
  override deleteBucketTagging(ctx: Ctx, b: string) {
    return cfg.deleteBucketTagging(this.up, ctx, b);
  }
  override getObjectLockConfiguration(ctx: Ctx, b: string) {
    return cfg.getObjectLockConfiguration(this.up, ctx, b);
  }
  override putObjectLockConfiguration(ctx: Ctx, b: string, c: BucketLockConfig) {
    return cfg.putObjectLockConfiguration(this.up, ctx, b, c);
  }

  // Objects
  override putObject(ctx: Ctx, i: PutObjectInput) {
    return objects.putObject(this.up, ctx, i);
  }
  override getObject(ctx: Ctx, i: GetObjectInput) {
    return objects.getObject(this.up, ctx, i);
  }
  override headObject(ctx: Ctx, i: HeadObjectInput) {
    return objects.headObject(this.up, ctx, i);
  }
  override deleteObject(ctx: Ctx, i: DeleteObjectInput) {
    return objects.deleteObject(this.up, ctx, i);
  }
  override deleteObjects(ctx: Ctx, i: DeleteObjectsInput) {
    return objects.deleteObjects(this.up, ctx, i);
  }
  override copyObject(ctx: Ctx, i: CopyObjectInput) {
    return objects.copyObject(this.up, ctx, i);
  }
  override listObjects(ctx: Ctx, i: ListObjectsV1Input) {
    return listing.listObjects(this.up, ctx, i);
  }
  override listObjectsV2(ctx: Ctx, i: ListObjectsV2Input) {
    return listing.listObjectsV2(this.up, ctx, i);
  }
  override listObjectVersions(ctx: Ctx, i: ListObjectVersionsInput) {
    return listing.listObjectVersions(this.up, ctx, i);
  }
  override getObjectAttributes(ctx: Ctx, i: GetObjectAttributesInput) {
    return getObjectAttributes(this.up, ctx, i);
  }
  override getObjectAcl(ctx: Ctx, i: ObjectKey) {
    return oc.getObjectAcl(this.up, ctx, i);
  }
  override putObjectAcl(ctx: Ctx, i: ObjectKey, acl: ObjectAclOutput) {
    return oc.putObjectAcl(this.up, ctx, i, acl);
  }
  override getObjectTagging(ctx: Ctx, i: ObjectKey) {
    return oc.getObjectTagging(this.up, ctx, i);
  }
  override putObjectTagging(ctx: Ctx, i: ObjectKey, t: TagSet) {
    return oc.putObjectTagging(this.up, ctx, i, t);
  }
  override deleteObjectTagging(ctx: Ctx, i: ObjectKey) {
    return oc.deleteObjectTagging(this.up, ctx, i);
  }
  override getObjectRetention(ctx: Ctx, i: ObjectKey) {
    return oc.getObjectRetention(this.up, ctx, i);
  }
  override putObjectRetention(ctx: Ctx, i: ObjectKey, r: ObjectRetention, bypass: boolean) {
    return oc.putObjectRetention(this.up, ctx, i, r, bypass);
  }
  override getObjectLegalHold(ctx: Ctx, i: ObjectKey) {
    return oc.getObjectLegalHold(this.up, ctx, i);
  }
  override putObjectLegalHold(ctx: Ctx, i: ObjectKey, on: boolean) {
    return oc.putObjectLegalHold(this.up, ctx, i, on);
  }
  override restoreObject(ctx: Ctx, i: ObjectKey) {
    return oc.restoreObject(this.up, ctx, i);
  }

  // Multipart
  override createMultipartUpload(ctx: Ctx, i: CreateMultipartUploadInput) {
    return mp.createMultipartUpload(this.up, ctx, i);
  }
  override uploadPart(ctx: Ctx, i: UploadPartInput) {
    return mp.uploadPart(this.up, ctx, i);
  }
  override uploadPartCopy(ctx: Ctx, i: UploadPartCopyInput) {
    return mp.uploadPartCopy(this.up, ctx, i);
  }
  override completeMultipartUpload(ctx: Ctx, i: CompleteMultipartUploadInput) {
    return mp.completeMultipartUpload(this.up, ctx, i);
  }
  override abortMultipartUpload(ctx: Ctx, i: UploadRef) {
    return mp.abortMultipartUpload(this.up, ctx, i);
  }
  override listParts(ctx: Ctx, i: ListPartsInput) {
    return mp.listParts(this.up, ctx, i);
  }
  override listMultipartUploads(ctx: Ctx, i: ListMultipartUploadsInput) {
    return mp.listMultipartUploads(this.up, ctx, i);
  }
}
