// State of the in-memory test backend: buckets, objects and uploads held in Maps.

import type { Readable } from 'node:stream';
import type {
  BucketAcl,
  BucketLockConfig,
  Checksums,
  ChecksumType,
  ContentHeaders,
  ObjectOwnership,
  ObjectRetention,
  TagSet,
  UserMetadata,
  VersioningStatus,
} from '@vgwrdma/s3-backend';

export interface MemObject extends ContentHeaders {
  /** The bytes, or a factory for synthetic objects streamed without being held in memory. */
  data: Buffer | { size: number; open(start: number, end: number): Readable };
  size: number;
  etag: string;
  lastModified: Date;
  metadata: UserMetadata;
  checksums: Checksums;
  checksumType?: ChecksumType;
  tags: TagSet;
  /** Part sizes when the object came from a multipart upload. */
  parts?: number[];
  retention?: ObjectRetention;
  legalHold?: boolean;
}

export interface MemPart {
  data: Buffer;
  etag: string;
  lastModified: Date;
  checksums: Checksums;
}

export interface MemUpload extends ContentHeaders {
  key: string;
  id: string;
  initiated: Date;
  metadata: UserMetadata;
  tags: TagSet;
  parts: Map<number, MemPart>;
  checksumAlgorithm?: import('@vgwrdma/s3-backend').ChecksumAlgorithm;
  checksumType?: ChecksumType;
}

export interface MemBucket {
  name: string;
  owner: string;
  created: Date;
  acl: BucketAcl;
  objects: Map<string, MemObject>;
  uploads: Map<string, MemUpload>;
  versioning?: VersioningStatus;
  policy?: string;
  cors?: string;
  website?: string;
  ownership?: ObjectOwnership;
  tags?: TagSet;
  lock?: BucketLockConfig;
}
