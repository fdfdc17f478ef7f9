// The Backend contract, in the shape of versitygw's backend.Backend: every S3 operation a storage
// engine (posix, s3 proxy) or a decorator (CuServer) implements. Methods take the typed request
// context first; bodies are Node streams; errors are S3Error values.
import type {
  BucketAcl,
  BucketLockConfig,
  BucketSummary,
  CreateBucketInput,
  HeadBucketOutput,
  ListBucketsInput,
  ListBucketsOutput,
  ObjectOwnership,
  PublicAccessBlock,
  VersioningStatus,
} from './types/bucket.js';
import type { ObjectRetention, TagSet } from './types/common.js';
import type { RequestContext } from './types/context.js';
import type {
  ListObjectsOutput,
  ListObjectsV1Input,
  ListObjectsV2Input,
  ListObjectVersionsInput,
  ListObjectVersionsOutput,
} from './types/listing.js';
import type {
  CompleteMultipartUploadInput,
  CompleteMultipartUploadOutput,
  CreateMultipartUploadInput,
  CreateMultipartUploadOutput,
  ListMultipartUploadsInput,
  ListMultipartUploadsOutput,
  ListPartsInput,
  ListPartsOutput,
  UploadPartCopyInput,
  UploadPartCopyOutput,
  UploadPartInput,
  UploadPartOutput,
  UploadRef,
} from './types/multipart.js';
import type {
  CopyObjectInput,
  CopyObjectOutput,
  DeleteObjectInput,
  DeleteObjectOutput,
  DeleteObjectsInput,
  DeleteObjectsOutput,
  GetObjectAttributesInput,
  GetObjectAttributesOutput,
  GetObjectInput,
  GetObjectOutput,
  HeadObjectInput,
  HeadObjectOutput,
  ObjectAclOutput,
  ObjectKey,
  PutObjectInput,
  PutObjectOutput,
} from './types/object.js';

type Ctx = RequestContext;

export interface BucketOperations {
  listBuckets(ctx: Ctx, input: ListBucketsInput): Promise<ListBucketsOutput>;
  createBucket(ctx: Ctx, input: CreateBucketInput): Promise<void>;
  headBucket(ctx: Ctx, bucket: string): Promise<HeadBucketOutput>;
  deleteBucket(ctx: Ctx, bucket: string): Promise<void>;
  getBucketAcl(ctx: Ctx, bucket: string): Promise<BucketAcl>;
  putBucketAcl(ctx: Ctx, bucket: string, acl: BucketAcl): Promise<void>;
  getBucketVersioning(ctx: Ctx, bucket: string): Promise<VersioningStatus | undefined>;
  putBucketVersioning(ctx: Ctx, bucket: string, status: VersioningStatus): Promise<void>;
  /** The policy JSON as sent; NoSuchBucketPolicy when none. */
  getBucketPolicy(ctx: Ctx, bucket: string): Promise<string>;
  putBucketPolicy(ctx: Ctx, bucket: string, policy: string): Promise<void>;
  deleteBucketPolicy(ctx: Ctx, bucket: string): Promise<void>;
  getBucketOwnershipControls(ctx: Ctx, bucket: string): Promise<ObjectOwnership>;
  putBucketOwnershipControls(ctx: Ctx, bucket: string, ownership: ObjectOwnership): Promise<void>;
  deleteBucketOwnershipControls(ctx: Ctx, bucket: string): Promise<void>;
  /** NoSuchPublicAccessBlockConfiguration when none. */
  getPublicAccessBlock(ctx: Ctx, bucket: string): Promise<PublicAccessBlock>;
  putPublicAccessBlock(ctx: Ctx, bucket: string, block: PublicAccessBlock): Promise<void>;
  deletePublicAccessBlock(ctx: Ctx, bucket: string): Promise<void>;
  /** The CORS configuration XML as sent; NoSuchCORSConfiguration when none. */
  getBucketCors(ctx: Ctx, bucket: string): Promise<string>;
  putBucketCors(ctx: Ctx, bucket: string, cors: string): Promise<void>;
  deleteBucketCors(ctx: Ctx, bucket: string): Promise<void>;
  /** The website configuration XML as sent; NoSuchWebsiteConfiguration when none. */
  getBucketWebsite(ctx: Ctx, bucket: string): Promise<string>;
  putBucketWebsite(ctx: Ctx, bucket: string, website: string): Promise<void>;
  deleteBucketWebsite(ctx: Ctx, bucket: string): Promise<void>;
  /** The notification configuration XML as sent (validated by the gateway); undefined when none. */
  getBucketNotification(ctx: Ctx, bucket: string): Promise<string | undefined>;
  putBucketNotification(ctx: Ctx, bucket: string, config: string): Promise<void>;
  deleteBucketNotification(ctx: Ctx, bucket: string): Promise<void>;
  getBucketTagging(ctx: Ctx, bucket: string): Promise<TagSet>;
  putBucketTagging(ctx: Ctx, bucket: string, tags: TagSet): Promise<void>;
  deleteBucketTagging(ctx: Ctx, bucket: string): Promise<void>;
  getObjectLockConfiguration(ctx: Ctx, bucket: string): Promise<BucketLockConfig>;
  putObjectLockConfiguration(ctx: Ctx, bucket: string, config: BucketLockConfig): Promise<void>;
}

export interface ObjectOperations {
  putObject(ctx: Ctx, input: PutObjectInput): Promise<PutObjectOutput>;
  getObject(ctx: Ctx, input: GetObjectInput): Promise<GetObjectOutput>;
  headObject(ctx: Ctx, input: HeadObjectInput): Promise<HeadObjectOutput>;
  deleteObject(ctx: Ctx, input: DeleteObjectInput): Promise<DeleteObjectOutput>;
  deleteObjects(ctx: Ctx, input: DeleteObjectsInput): Promise<DeleteObjectsOutput>;
  copyObject(ctx: Ctx, input: CopyObjectInput): Promise<CopyObjectOutput>;
  listObjects(ctx: Ctx, input: ListObjectsV1Input): Promise<ListObjectsOutput>;
  listObjectsV2(ctx: Ctx, input: ListObjectsV2Input): Promise<ListObjectsOutput>;
  listObjectVersions(ctx: Ctx, input: ListObjectVersionsInput): Promise<ListObjectVersionsOutput>;
  getObjectAttributes(ctx: Ctx, input: GetObjectAttributesInput): Promise<GetObjectAttributesOutput>;
  getObjectAcl(ctx: Ctx, input: ObjectKey): Promise<ObjectAclOutput>;
  putObjectAcl(ctx: Ctx, input: ObjectKey, acl: ObjectAclOutput): Promise<void>;
  getObjectTagging(ctx: Ctx, input: ObjectKey): Promise<TagSet>;
  putObjectTagging(ctx: Ctx, input: ObjectKey, tags: TagSet): Promise<void>;
  deleteObjectTagging(ctx: Ctx, input: ObjectKey): Promise<void>;
  getObjectRetention(ctx: Ctx, input: ObjectKey): Promise<ObjectRetention>;
  putObjectRetention(
    ctx: Ctx,
    input: ObjectKey,
    retention: ObjectRetention,
    bypassGovernance: boolean,
  ): Promise<void>;
  getObjectLegalHold(ctx: Ctx, input: ObjectKey): Promise<boolean>;
  putObjectLegalHold(ctx: Ctx, input: ObjectKey, on: boolean): Promise<void>;
  restoreObject(ctx: Ctx, input: ObjectKey): Promise<void>;
}

export interface MultipartOperations {
  createMultipartUpload(ctx: Ctx, input: CreateMultipartUploadInput): Promise<CreateMultipartUploadOutput>;
  uploadPart(ctx: Ctx, input: UploadPartInput): Promise<UploadPartOutput>;
  uploadPartCopy(ctx: Ctx, input: UploadPartCopyInput): Promise<UploadPartCopyOutput>;
  completeMultipartUpload(
    ctx: Ctx,
    input: CompleteMultipartUploadInput,
  ): Promise<CompleteMultipartUploadOutput>;
  abortMultipartUpload(ctx: Ctx, input: UploadRef): Promise<void>;
  listParts(ctx: Ctx, input: ListPartsInput): Promise<ListPartsOutput>;
  listMultipartUploads(ctx: Ctx, input: ListMultipartUploadsInput): Promise<ListMultipartUploadsOutput>;
}

/** Non-AWS operations the admin API uses. */
export interface AdminOperations {
  changeBucketOwner(ctx: Ctx, bucket: string, newOwner: string): Promise<void>;
  listBucketsAndOwners(ctx: Ctx): Promise<BucketSummary[]>;
}

/** Every operation of a Backend (its methods but `name` and `shutdown`), as interfaces a class can merge with. */
export interface BackendOperations
  extends BucketOperations,
    ObjectOperations,
    MultipartOperations,
    AdminOperations {}

export interface Backend extends BackendOperations {
  /** A short name for logs ("posix", "s3", "cuserver(posix)"). */
  readonly name: string;
  /** Releases resources (pools, handles, connections). Idempotent. */
  shutdown(): Promise<void>;
}

export type BackendMethod = Exclude<keyof Backend, 'name' | 'shutdown'>;
