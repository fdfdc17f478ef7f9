// Inputs and outputs of the multipart upload operations.
import type { Body, ChecksumAlgorithm, ChecksumRequest, Checksums, ChecksumType, Owner } from './common.js';
import type { CopySource, ObjectAttributesInput, ResponseHeaders } from './object.js';

export interface CreateMultipartUploadInput extends ObjectAttributesInput {
  bucket: string;
  key: string;
  checksumAlgorithm?: ChecksumAlgorithm;
  checksumType?: ChecksumType;
}

export interface CreateMultipartUploadOutput {
  bucket: string;
  key: string;
  uploadId: string;
  checksumAlgorithm?: ChecksumAlgorithm;
  checksumType?: ChecksumType;
}

export interface UploadRef {
  bucket: string;
  key: string;
  uploadId: string;
}

export interface UploadPartInput extends UploadRef {
  partNumber: number;
  body: Body;
  contentLength?: number;
  contentMD5?: string;
  checksum?: ChecksumRequest;
}

export interface UploadPartOutput extends ResponseHeaders {
  etag: string;
  size: number;
  checksums: Checksums;
}

export interface UploadPartCopyInput extends UploadRef {
  partNumber: number;
  source: CopySource;
  /** x-amz-copy-source-range, inclusive. */
  sourceRange?: { start: number; end: number };
}

export interface UploadPartCopyOutput {
  etag: string;
  lastModified: Date;
  copySourceVersionId?: string;
  checksums?: Checksums;
}

export interface CompletedPart {
  partNumber: number;
  etag: string;
  checksums?: Checksums;
}

export interface CompleteMultipartUploadInput extends UploadRef {
  parts: CompletedPart[];
  /** Full-object or composite checksum the client expects for the whole object. */
  checksums?: Checksums;
  checksumType?: ChecksumType;
  /** x-amz-mp-object-size */
  objectSize?: number;
  ifMatch?: string;
  ifNoneMatch?: string;
}

export interface CompleteMultipartUploadOutput {
  bucket: string;
  key: string;
  etag: string;
  versionId?: string;
  checksums?: Checksums;
  checksumType?: ChecksumType;
}

export interface ListPartsInput extends UploadRef {
  partNumberMarker?: number;
  maxParts: number;
}

export interface ListedPart {
  partNumber: number;
  etag: string;
  size: number;
  lastModified: Date;
  checksums?: Checksums;
}

export interface ListPartsOutput extends UploadRef {
  parts: ListedPart[];
  partNumberMarker: number;
  nextPartNumberMarker?: number;
  maxParts: number;
  isTruncated: boolean;
  owner?: Owner;
  initiator?: Owner;
  storageClass: string;
  checksumAlgorithm?: ChecksumAlgorithm;
  checksumType?: ChecksumType;
}

export interface ListMultipartUploadsInput {
  bucket: string;
  prefix?: string;
  delimiter?: string;
  keyMarker?: string;
  uploadIdMarker?: string;
  maxUploads: number;
}

export interface ListedUpload {
  key: string;
  uploadId: string;
  initiated: Date;
  storageClass: string;
  owner?: Owner;
  initiator?: Owner;
  checksumAlgorithm?: ChecksumAlgorithm;
  checksumType?: ChecksumType;
}

export interface ListMultipartUploadsOutput {
  bucket: string;
  uploads: ListedUpload[];
  commonPrefixes: string[];
  isTruncated: boolean;
  keyMarker?: string;
  uploadIdMarker?: string;
  nextKeyMarker?: string;
  nextUploadIdMarker?: string;
  maxUploads: number;
}

export type { CopySource };
