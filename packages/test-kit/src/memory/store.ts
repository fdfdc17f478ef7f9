// The state of the in-memory backend and the lookups every operation shares.
import type { Readable } from 'node:stream';
import {
  type BucketAcl,
  type BucketLockConfig,
  type Checksums,
  type ChecksumType,
  type ContentHeaders,
  type ObjectAttributesInput,
  type ObjectOwnership,
  pickContentHeaders,
  S3Error,
  type TagSet,
  type UserMetadata,
  type VersioningStatus,
} from '@vgwrdma/backend-contract';

export interface MemObject {
  /** The bytes (empty for a synthetic object). */
  data: Buffer;
  size: number;
  /** A synthetic object's bytes, made on read and never held (MemoryBackend.putSynthetic). */
  open?: (start: number, end: number) => Readable;
  etag: string;
  lastModified: Date;
  metadata: UserMetadata;
  headers: ContentHeaders;
  checksums: Checksums;
  checksumType?: ChecksumType;
  tags: TagSet;
  /** Part sizes, for objects made by CompleteMultipartUpload. */
  partSizes?: number[];
}

export interface MemPart {
  data: Buffer;
  etag: string;
  lastModified: Date;
  checksums: Checksums;
}

export interface MemUpload {
  key: string;
  uploadId: string;
  initiated: Date;
  attrs: ObjectAttributesInput;
  parts: Map<number, MemPart>;
}

export interface MemBucket {
  name: string;
  owner: string;
  created: Date;
  objects: Map<string, MemObject>;
  uploads: Map<string, MemUpload>;
  /** Completed upload ids → (parts signature, result), so a repeated Complete succeeds. */
  completed: Map<string, { signature: string; etag: string; key: string }>;
  acl: BucketAcl;
  versioning?: VersioningStatus;
  policy?: string;
  cors?: string;
  ownership?: ObjectOwnership;
  tags?: TagSet;
  lock?: BucketLockConfig;
}

/** The content headers present on an input, and nothing else. */
export const pickHeaders = pickContentHeaders;

export const MAX_KEY_BYTES = 1024;
export const MAX_METADATA_BYTES = 2048;

export function checkKey(key: string): void {
  if (Buffer.byteLength(key) > MAX_KEY_BYTES) throw new S3Error('KeyTooLongError');
}

/** S3 counts the UTF-8 bytes of every user-metadata key and value toward 2 KiB. */
export function checkMetadata(metadata: UserMetadata | undefined): void {
  if (!metadata) return;
  let total = 0;
  for (const [k, v] of Object.entries(metadata)) total += Buffer.byteLength(k) + Buffer.byteLength(v);
  if (total > MAX_METADATA_BYTES) throw new S3Error('MetadataTooLarge');
}

export class MemStore {
  readonly buckets = new Map<string, MemBucket>();

  bucket(name: string): MemBucket {
    const b = this.buckets.get(name);
    if (!b) throw new S3Error('NoSuchBucket', undefined, { detail: { BucketName: name } });
    return b;
  }

  object(bucket: string, key: string): MemObject {
    const o = this.bucket(bucket).objects.get(key);
    if (!o) throw new S3Error('NoSuchKey', undefined, { detail: { Key: key } });
    return o;
  }

  upload(bucket: string, uploadId: string): MemUpload {
    const u = this.bucket(bucket).uploads.get(uploadId);
    if (!u) throw new S3Error('NoSuchUpload');
    return u;
  }
}
