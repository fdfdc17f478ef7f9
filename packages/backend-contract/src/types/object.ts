// Inputs and outputs of the single-object operations.
import type {
  Body,
  ByteRange,
  ChecksumAlgorithm,
  ChecksumRequest,
  Checksums,
  ChecksumType,
  Conditions,
  ContentHeaders,
  ObjectRetention,
  Owner,
  ResolvedRange,
  TagSet,
  UserMetadata,
} from './common.js';

export interface ObjectKey {
  bucket: string;
  key: string;
  versionId?: string;
}

/** What a new object is created with (PutObject, CreateMultipartUpload, CopyObject REPLACE). */
export interface ObjectAttributesInput extends ContentHeaders {
  metadata?: UserMetadata;
  tagging?: TagSet;
  retention?: ObjectRetention;
  legalHold?: boolean;
  /** The new object's ACL (x-amz-acl / x-amz-grant-* of the write); a backend that keeps none ignores it. */
  acl?: ObjectAclOutput;
}

export interface PutObjectInput extends ObjectAttributesInput {
  bucket: string;
  key: string;
  body: Body;
  /** Bytes the body will yield (decoded length for aws-chunked). Undefined = unknown. */
  contentLength?: number;
  /** base64 Content-MD5 to verify (BadDigest on mismatch). */
  contentMD5?: string;
  checksum?: ChecksumRequest;
  /** Conditional write (If-Match / If-None-Match: "*"). */
  ifMatch?: string;
  ifNoneMatch?: string;
}

/**
 * Extra response headers an operation asks the HTTP layer to send (e.g. CuServer's
 * `x-amz-rdma-reply`); the gateway copies them onto the response unchanged.
 */
export interface ResponseHeaders {
  responseHeaders?: Record<string, string>;
}

export interface PutObjectOutput extends ResponseHeaders {
  etag: string;
  size: number;
  versionId?: string;
  checksums: Checksums;
  checksumType?: ChecksumType;
}

/** Everything HEAD answers about an object. */
export interface ObjectInfo extends ContentHeaders {
  key: string;
  etag: string;
  size: number;
  lastModified: Date;
  metadata: UserMetadata;
  versionId?: string;
  storageClass?: string;
  checksums?: Checksums;
  checksumType?: ChecksumType;
  tagCount?: number;
  retention?: ObjectRetention;
  legalHold?: boolean;
  /** Number of parts when the object came from a multipart upload. */
  partsCount?: number;
  deleteMarker?: boolean;
}

export interface HeadObjectInput extends ObjectKey {
  range?: ByteRange;
  partNumber?: number;
  conditions?: Conditions;
  /** x-amz-checksum-mode: ENABLED */
  checksumMode?: boolean;
}

export interface HeadObjectOutput extends ObjectInfo {
  /** Set when a range or part was asked for: the bytes a GET would return. */
  range?: ResolvedRange;
}

export type GetObjectInput = HeadObjectInput;

export interface GetObjectOutput extends HeadObjectOutput, ResponseHeaders {
  /** The object (or range) bytes; the consumer must read or destroy it. */
  body: Body;
}

export interface DeleteObjectInput extends ObjectKey {
  bypassGovernanceRetention?: boolean;
  ifMatch?: string;
}

export interface DeleteObjectOutput {
  deleteMarker?: boolean;
  versionId?: string;
}

export interface DeleteObjectsInput {
  bucket: string;
  objects: { key: string; versionId?: string }[];
  quiet?: boolean;
  bypassGovernanceRetention?: boolean;
}

export interface DeleteObjectsOutput {
  deleted: { key: string; versionId?: string; deleteMarker?: boolean; deleteMarkerVersionId?: string }[];
  errors: { key: string; versionId?: string; code: string; message: string }[];
}

export type MetadataDirective = 'COPY' | 'REPLACE';

export interface CopySource extends ObjectKey {
  /** x-amz-copy-source-if-* */
  conditions?: Conditions;
}

export interface CopyObjectInput extends ObjectAttributesInput {
  bucket: string;
  key: string;
  source: CopySource;
  metadataDirective?: MetadataDirective;
  taggingDirective?: MetadataDirective;
  checksumAlgorithm?: ChecksumAlgorithm;
}

export interface CopyObjectOutput {
  etag: string;
  lastModified: Date;
  versionId?: string;
  copySourceVersionId?: string;
  checksums?: Checksums;
}

export type ObjectAttributeName = 'ETag' | 'Checksum' | 'ObjectParts' | 'StorageClass' | 'ObjectSize';

export interface GetObjectAttributesInput extends ObjectKey {
  attributes: ObjectAttributeName[];
  maxParts?: number;
  partNumberMarker?: number;
}

export interface GetObjectAttributesOutput {
  etag?: string;
  size?: number;
  storageClass?: string;
  lastModified: Date;
  versionId?: string;
  checksums?: Checksums;
  checksumType?: ChecksumType;
  parts?: {
    totalPartsCount: number;
    partNumberMarker: number;
    nextPartNumberMarker?: number;
    maxParts: number;
    isTruncated: boolean;
    parts: { partNumber: number; size: number; checksums?: Checksums }[];
  };
}

/** An object's ACL: its owner and every grant (the owner holds only what `grants` lists). */
export interface ObjectAclOutput {
  owner: Owner;
  grants: { grantee: { type: 'CanonicalUser' | 'Group'; id?: string; uri?: string }; permission: string }[];
  /**
   * The object has no ACL of its own (written by versitygw, or by a backend that keeps none):
   * access to it follows the bucket ACL, and `grants` is the owner's FULL_CONTROL alone.
   */
  inherited?: boolean;
}
