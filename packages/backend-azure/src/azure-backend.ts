// AzureBackend: the Backend contract on Azure Blob Storage through the official
// @azure/storage-blob SDK, mapped as versitygw's azure backend maps it — buckets are containers,
// objects block blobs, multipart uploads staged blocks committed by Complete, user metadata and
// checksums in blob metadata, tags as blob index tags, bucket ACLs and policies in container
// metadata. Each method is one line: the work is in ./ops.
import type {
  BucketAcl,
  BucketSummary,
  CompleteMultipartUploadInput,
  CopyObjectInput,
  CreateBucketInput,
  CreateMultipartUploadInput,
  RequestContext as Ctx,
  DeleteObjectInput,
  DeleteObjectsInput,
  GetObjectInput,
  HeadObjectInput,
  ListBucketsInput,
  ListMultipartUploadsInput,
  ListObjectsV1Input,
  ListObjectsV2Input,
  ListObjectVersionsInput,
  ListPartsInput,
  ObjectKey,
  ObjectOwnership,
  PublicAccessBlock,
  PutObjectInput,
  TagSet,
  UploadPartCopyInput,
  UploadPartInput,
  UploadRef,
  VersioningStatus,
} from '@vgwrdma/s3-backend';
import { UnsupportedBackend } from '@vgwrdma/s3-backend';
import { createServiceClient } from './client.js';
import * as cfg from './ops/bucket-config.js';
import * as buckets from './ops/buckets.js';
import * as listing from './ops/listing.js';
import * as mp from './ops/multipart.js';
import * as objects from './ops/objects.js';
import * as tagging from './ops/tagging.js';
import type { AzureBackendOptions } from './options.js';
import type { Upstream } from './upstream.js';

/** Start-up failure: the service could not be reached or refused the credentials. */
export class AzureUnreachableError extends Error {
  constructor(
    readonly url: string,
    options?: { cause?: unknown },
  ) {
    super(`cannot reach Azure Blob Storage at ${url} with the given credentials`, options);
    this.name = 'AzureUnreachableError';
  }
}

export class AzureBackend extends UnsupportedBackend {
  override readonly name = 'azure';
  private readonly up: Upstream;

  /** Builds the backend without touching the network; `open()` also checks the service answers. */
  constructor(readonly options: AzureBackendOptions) {
    super();
    this.up = { service: createServiceClient(options) };
  }

  /** A backend whose service answered one listing with the given credentials. */
  static async open(options: AzureBackendOptions): Promise<AzureBackend> {
    const backend = new AzureBackend(options);
    try {
      await backend.up.service.listContainers().byPage({ maxPageSize: 1 }).next();
    } catch (err) {
      throw new AzureUnreachableError(backend.up.service.url.split('?')[0] ?? '', { cause: err });
    }
    return backend;
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
  /** Blob Storage keeps no S3 versions: every bucket answers as never versioned. */
  override async getBucketVersioning(ctx: Ctx, b: string): Promise<VersioningStatus | undefined> {
    await buckets.headBucket(this.up, ctx, b);
    return undefined;
  }

  // Bucket configuration (container metadata)
  override getBucketPolicy(ctx: Ctx, b: string) {
    return cfg.getBucketPolicy(this.up, ctx, b);
  }
  override putBucketPolicy(ctx: Ctx, b: string, p: string) {
    return cfg.putBucketPolicy(this.up, ctx, b, p);
  }
  override deleteBucketPolicy(ctx: Ctx, b: string) {
    return cfg.deleteBucketPolicy(this.up, ctx, b);
  }
  override getBucketCors(ctx: Ctx, b: string) {
    return cfg.getBucketCors(this.up, ctx, b);
  }
  override putBucketCors(ctx: Ctx, b: string, c: string) {
    return cfg.putBucketCors(this.up, ctx, b, c);
  }
  override deleteBucketCors(ctx: Ctx, b: string) {
    return cfg.deleteBucketCors(this.up, ctx, b);
  }
  override getBucketWebsite(ctx: Ctx, b: string) {
    return cfg.getBucketWebsite(this.up, ctx, b);
  }
  override putBucketWebsite(ctx: Ctx, b: string, w: string) {
    return cfg.putBucketWebsite(this.up, ctx, b, w);
  }
  override deleteBucketWebsite(ctx: Ctx, b: string) {
    return cfg.deleteBucketWebsite(this.up, ctx, b);
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
  override getPublicAccessBlock(ctx: Ctx, b: string) {
    return cfg.getPublicAccessBlock(this.up, ctx, b);
  }
  override putPublicAccessBlock(ctx: Ctx, b: string, p: PublicAccessBlock) {
    return cfg.putPublicAccessBlock(this.up, ctx, b, p);
  }
  override deletePublicAccessBlock(ctx: Ctx, b: string) {
    return cfg.deletePublicAccessBlock(this.up, ctx, b);
  }
  override getBucketNotification(ctx: Ctx, b: string) {
    return cfg.getBucketNotification(this.up, ctx, b);
  }
  override putBucketNotification(ctx: Ctx, b: string, c: string) {
    return cfg.putBucketNotification(this.up, ctx, b, c);
  }
  override deleteBucketNotification(ctx: Ctx, b: string) {
    return cfg.deleteBucketNotification(this.up, ctx, b);
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
  override getObjectTagging(ctx: Ctx, i: ObjectKey) {
    return tagging.getObjectTagging(this.up, ctx, i);
  }
  override putObjectTagging(ctx: Ctx, i: ObjectKey, t: TagSet) {
    return tagging.putObjectTagging(this.up, ctx, i, t);
  }
  override deleteObjectTagging(ctx: Ctx, i: ObjectKey) {
    return tagging.deleteObjectTagging(this.up, ctx, i);
  }

  // Listing
  override listObjects(ctx: Ctx, i: ListObjectsV1Input) {
    return listing.listObjects(this.up, ctx, i);
  }
  override listObjectsV2(ctx: Ctx, i: ListObjectsV2Input) {
    return listing.listObjectsV2(this.up, ctx, i);
  }
  override listObjectVersions(ctx: Ctx, i: ListObjectVersionsInput) {
    return listing.listObjectVersions(this.up, ctx, i);
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
