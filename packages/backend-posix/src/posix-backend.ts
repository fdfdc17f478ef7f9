// PosixBackend: the versitygw-compatible POSIX storage engine. Buckets are top-level
// directories, objects are files, metadata is user.* xattrs (or sidecar files, or nothing).
// This class only wires the Backend contract to the operation modules; each module documents
// its part of the on-disk contract (docs/posix-layout.md).

import {
  type BucketAcl,
  type BucketLockConfig,
  type BucketSummary,
  type CompleteMultipartUploadInput,
  type CompleteMultipartUploadOutput,
  type CopyObjectInput,
  type CopyObjectOutput,
  type CreateBucketInput,
  type CreateMultipartUploadInput,
  type CreateMultipartUploadOutput,
  type DeleteObjectInput,
  type DeleteObjectOutput,
  type DeleteObjectsInput,
  type DeleteObjectsOutput,
  type GetObjectAttributesInput,
  type GetObjectAttributesOutput,
  type GetObjectInput,
  type GetObjectOutput,
  type HeadBucketOutput,
  type HeadObjectInput,
  type HeadObjectOutput,
  type ListBucketsInput,
  type ListBucketsOutput,
  type ListMultipartUploadsInput,
  type ListMultipartUploadsOutput,
  type ListObjectsOutput,
  type ListObjectsV1Input,
  type ListObjectsV2Input,
  type ListObjectVersionsInput,
  type ListObjectVersionsOutput,
  type ListPartsInput,
  type ListPartsOutput,
  MD5_ETAG,
  type ObjectAclOutput,
  type ObjectKey,
  type ObjectOwnership,
  type ObjectRetention,
  type PublicAccessBlock,
  type PutObjectInput,
  type PutObjectOutput,
  type RequestContext,
  type TagSet,
  UnsupportedBackend,
  type UploadPartCopyInput,
  type UploadPartCopyOutput,
  type UploadPartInput,
  type UploadPartOutput,
  type UploadRef,
  type VersioningStatus,
} from '@vgwrdma/backend-contract';
import { installNativeKernels } from '@vgwrdma/native/kernels';
import type { PosixEnv } from './env.js';
import { checkEtagMode } from './etag-mode.js';
import { cleanStaleTemps } from './fs/stale-temps.js';
import { DEFAULT_FILE_PERMS } from './fs/temp-file.js';
import { listObjectsV1, listObjectsV2, listObjectVersions } from './listing/list-objects.js';
import type { MetaStoreKind } from './meta/store.js';
import { completeMultipartUpload } from './multipart/complete.js';
import { listMultipartUploads } from './multipart/list-uploads.js';
import { listParts, uploadPart, uploadPartCopy } from './multipart/parts.js';
import { abortMultipartUpload, createMultipartUpload } from './multipart/uploads.js';
import { openStore, openVersionStore, type PosixBackendOptions } from './open.js';
import * as cfg from './ops/bucket-config.js';
import * as buckets from './ops/buckets.js';
import { deleteObject, deleteObjects } from './ops/delete-object.js';
import * as objAcl from './ops/object-acl.js';
import * as sub from './ops/object-subresources.js';
import { copyObject, putObject } from './ops/put-copy.js';
import { getObject, headObject } from './ops/read-object.js';

type Ctx = RequestContext;

export class PosixBackend extends UnsupportedBackend {
  override readonly name = 'posix';

  private constructor(private readonly env: PosixEnv) {
    super();
  }

  /**
   * Opens (and if needed creates) a tree; see PosixBackendOptions. Installs the native hashing
   * kernels first (installNativeKernels: idempotent), so an embedded backend hashes natively too;
   * a VGWRDMA_SHIM_DIR without the library fails here, with NativeLoadError.
   */
  static async open(opts: PosixBackendOptions): Promise<PosixBackend> {
    installNativeKernels();
    const { root, meta } = await openStore(opts);
    await cleanStaleTemps(root, meta, {
      ...(opts.staleTempAgeMs === undefined ? {} : { maxAgeMs: opts.staleTempAgeMs }),
    });
    const versions = await openVersionStore(root, opts);
    return new PosixBackend({
      root,
      meta,
      dirPerms: opts.dirPerms ?? 0o755,
      filePerms: opts.filePerms ?? DEFAULT_FILE_PERMS,
      ...(opts.bucketLinks ? { bucketLinks: true } : {}),
      ...(opts.chownUid || opts.chownGid
        ? { chown: { uid: opts.chownUid === true, gid: opts.chownGid === true } }
        : {}),
      region: opts.region ?? 'us-east-1',
      etagMode: checkEtagMode(opts.etagMode ?? MD5_ETAG),
      ...(versions ? { versions } : {}),
    });
  }

  get root(): string {
    return this.env.root;
  }

  /** The versioning directory, when opened with one. */
  get versioningDir(): string | undefined {
    return this.env.versions?.root;
  }

  /** Where attributes are kept: xattrs, a sidecar tree, or nowhere. */
  get metaStore(): MetaStoreKind {
    return this.env.meta.kind;
  }

  override async shutdown(): Promise<void> {}

  // Buckets
  override listBuckets(_: Ctx, input: ListBucketsInput): Promise<ListBucketsOutput> {
    return buckets.listBuckets(this.env, input);
  }
  override createBucket(_: Ctx, input: CreateBucketInput): Promise<void> {
    return buckets.createBucket(this.env, input);
  }
  override headBucket(_: Ctx, bucket: string): Promise<HeadBucketOutput> {
    return buckets.headBucket(this.env, bucket);
  }
  override deleteBucket(_: Ctx, bucket: string): Promise<void> {
    return buckets.deleteBucket(this.env, bucket);
  }
  override getBucketAcl(_: Ctx, bucket: string): Promise<BucketAcl> {
    return buckets.getBucketAcl(this.env, bucket);
  }
  override putBucketAcl(_: Ctx, bucket: string, acl: BucketAcl): Promise<void> {
    return buckets.putBucketAcl(this.env, bucket, acl);
  }
  override changeBucketOwner(_: Ctx, bucket: string, newOwner: string): Promise<void> {
    return buckets.changeBucketOwner(this.env, bucket, newOwner);
  }
  override listBucketsAndOwners(_: Ctx): Promise<BucketSummary[]> {
    return buckets.listBucketsAndOwners(this.env);
  }

  // Bucket configuration (stored as sent; see README for what is enforced)
  override getBucketVersioning(_: Ctx, bucket: string): Promise<VersioningStatus | undefined> {
    return cfg.getVersioning(this.env, bucket);
  }
  override putBucketVersioning(_: Ctx, bucket: string, status: VersioningStatus): Promise<void> {
    return cfg.putVersioning(this.env, bucket, status);
  }
  override getBucketPolicy(_: Ctx, bucket: string): Promise<string> {
    return cfg.getTextConfig(this.env, bucket, 'policy');
  }
  override putBucketPolicy(_: Ctx, bucket: string, policy: string): Promise<void> {
    return cfg.putTextConfig(this.env, bucket, 'policy', policy);
  }
  override deleteBucketPolicy(_: Ctx, bucket: string): Promise<void> {
    return cfg.deleteTextConfig(this.env, bucket, 'policy');
  }
  override getBucketOwnershipControls(_: Ctx, bucket: string): Promise<ObjectOwnership> {
    return cfg.getOwnership(this.env, bucket);
  }
  override putBucketOwnershipControls(_: Ctx, bucket: string, ownership: ObjectOwnership): Promise<void> {
    return cfg.putTextConfig(this.env, bucket, 'ownership', ownership);
  }
  override deleteBucketOwnershipControls(_: Ctx, bucket: string): Promise<void> {
    return cfg.deleteTextConfig(this.env, bucket, 'ownership');
  }
  override getPublicAccessBlock(_: Ctx, bucket: string): Promise<PublicAccessBlock> {
    return cfg.getPublicAccessBlock(this.env, bucket);
  }
  override putPublicAccessBlock(_: Ctx, bucket: string, block: PublicAccessBlock): Promise<void> {
    return cfg.putTextConfig(this.env, bucket, 'publicAccessBlock', JSON.stringify(block));
  }
  override deletePublicAccessBlock(_: Ctx, bucket: string): Promise<void> {
    return cfg.deleteTextConfig(this.env, bucket, 'publicAccessBlock');
  }
  override getBucketCors(_: Ctx, bucket: string): Promise<string> {
    return cfg.getTextConfig(this.env, bucket, 'cors');
  }
  override putBucketCors(_: Ctx, bucket: string, cors: string): Promise<void> {
    return cfg.putTextConfig(this.env, bucket, 'cors', cors);
  }
  override deleteBucketCors(_: Ctx, bucket: string): Promise<void> {
    return cfg.deleteTextConfig(this.env, bucket, 'cors');
  }
  override getBucketWebsite(_: Ctx, bucket: string): Promise<string> {
    return cfg.getTextConfig(this.env, bucket, 'website');
  }
  override putBucketWebsite(_: Ctx, bucket: string, website: string): Promise<void> {
    return cfg.putTextConfig(this.env, bucket, 'website', website);
  }
  override deleteBucketWebsite(_: Ctx, bucket: string): Promise<void> {
    return cfg.deleteTextConfig(this.env, bucket, 'website');
  }
  override getBucketNotification(_: Ctx, bucket: string): Promise<string | undefined> {
    return cfg.getNotification(this.env, bucket);
  }
  override putBucketNotification(_: Ctx, bucket: string, xml: string): Promise<void> {
    return cfg.putNotification(this.env, bucket, xml);
  }
  override deleteBucketNotification(_: Ctx, bucket: string): Promise<void> {
    return cfg.deleteNotification(this.env, bucket);
  }
  override getBucketTagging(_: Ctx, bucket: string): Promise<TagSet> {
    return cfg.getBucketTagging(this.env, bucket);
  }
  override putBucketTagging(_: Ctx, bucket: string, tags: TagSet): Promise<void> {
    return cfg.putBucketTagging(this.env, bucket, tags);
  }
  override deleteBucketTagging(_: Ctx, bucket: string): Promise<void> {
    return cfg.deleteBucketTagging(this.env, bucket);
  }
  override getObjectLockConfiguration(_: Ctx, bucket: string): Promise<BucketLockConfig> {
    return cfg.getLockConfig(this.env, bucket);
  }
  override putObjectLockConfiguration(_: Ctx, bucket: string, config: BucketLockConfig): Promise<void> {
    return cfg.putLockConfig(this.env, bucket, config);
  }

  // Objects
  override putObject(ctx: Ctx, input: PutObjectInput): Promise<PutObjectOutput> {
    return putObject(this.env, ctx, input);
  }
  override getObject(_: Ctx, input: GetObjectInput): Promise<GetObjectOutput> {
    return getObject(this.env, input);
  }
  override headObject(_: Ctx, input: HeadObjectInput): Promise<HeadObjectOutput> {
    return headObject(this.env, input);
  }
  override deleteObject(_: Ctx, input: DeleteObjectInput): Promise<DeleteObjectOutput> {
    return deleteObject(this.env, input);
  }
  override deleteObjects(_: Ctx, input: DeleteObjectsInput): Promise<DeleteObjectsOutput> {
    return deleteObjects(this.env, input);
  }
  override copyObject(ctx: Ctx, input: CopyObjectInput): Promise<CopyObjectOutput> {
    return copyObject(this.env, ctx, input);
  }
  override listObjects(_: Ctx, input: ListObjectsV1Input): Promise<ListObjectsOutput> {
    return listObjectsV1(this.env, input);
  }
  override listObjectsV2(_: Ctx, input: ListObjectsV2Input): Promise<ListObjectsOutput> {
    return listObjectsV2(this.env, input);
  }
  override listObjectVersions(_: Ctx, input: ListObjectVersionsInput): Promise<ListObjectVersionsOutput> {
    return listObjectVersions(this.env, input);
  }
  override getObjectAttributes(_: Ctx, input: GetObjectAttributesInput): Promise<GetObjectAttributesOutput> {
    return sub.getObjectAttributes(this.env, input);
  }
  override getObjectAcl(_: Ctx, input: ObjectKey): Promise<ObjectAclOutput> {
    return objAcl.getObjectAcl(this.env, input);
  }
  override putObjectAcl(_: Ctx, input: ObjectKey, acl: ObjectAclOutput): Promise<void> {
    return objAcl.putObjectAcl(this.env, input, acl);
  }
  override getObjectTagging(_: Ctx, input: ObjectKey): Promise<TagSet> {
    return sub.getObjectTagging(this.env, input);
  }
  override putObjectTagging(_: Ctx, input: ObjectKey, tags: TagSet): Promise<void> {
    return sub.putObjectTagging(this.env, input, tags);
  }
  override deleteObjectTagging(_: Ctx, input: ObjectKey): Promise<void> {
    return sub.deleteObjectTagging(this.env, input);
  }
  override getObjectRetention(_: Ctx, input: ObjectKey): Promise<ObjectRetention> {
    return sub.getObjectRetention(this.env, input);
  }
  override putObjectRetention(
    _: Ctx,
    input: ObjectKey,
    retention: ObjectRetention,
    bypassGovernance: boolean,
  ): Promise<void> {
    return sub.putObjectRetention(this.env, input, retention, bypassGovernance);
  }
  override getObjectLegalHold(_: Ctx, input: ObjectKey): Promise<boolean> {
    return sub.getObjectLegalHold(this.env, input);
  }
  override putObjectLegalHold(_: Ctx, input: ObjectKey, on: boolean): Promise<void> {
    return sub.putObjectLegalHold(this.env, input, on);
  }

  // Multipart
  override createMultipartUpload(
    _: Ctx,
    input: CreateMultipartUploadInput,
  ): Promise<CreateMultipartUploadOutput> {
    return createMultipartUpload(this.env, input);
  }
  override uploadPart(ctx: Ctx, input: UploadPartInput): Promise<UploadPartOutput> {
    return uploadPart(this.env, ctx, input);
  }
  override uploadPartCopy(ctx: Ctx, input: UploadPartCopyInput): Promise<UploadPartCopyOutput> {
    return uploadPartCopy(this.env, ctx, input);
  }
  override completeMultipartUpload(
    ctx: Ctx,
    input: CompleteMultipartUploadInput,
  ): Promise<CompleteMultipartUploadOutput> {
    return completeMultipartUpload(this.env, ctx, input);
  }
  override abortMultipartUpload(_: Ctx, input: UploadRef): Promise<void> {
    return abortMultipartUpload(this.env, input);
  }
  override listParts(_: Ctx, input: ListPartsInput): Promise<ListPartsOutput> {
    return listParts(this.env, input);
  }
  override listMultipartUploads(
    _: Ctx,
    input: ListMultipartUploadsInput,
  ): Promise<ListMultipartUploadsOutput> {
    return listMultipartUploads(this.env, input);
  }
}
