// Inputs, outputs and stored configurations of the bucket operations.
import type { ObjectLockMode } from './common.js';

export type CannedAcl = 'private' | 'public-read' | 'public-read-write' | 'authenticated-read';
export type ObjectOwnership = 'BucketOwnerEnforced' | 'BucketOwnerPreferred' | 'ObjectWriter';
export type VersioningStatus = 'Enabled' | 'Suspended';
export type Permission = 'FULL_CONTROL' | 'READ' | 'WRITE' | 'READ_ACP' | 'WRITE_ACP';

/** A bucket ACL in versitygw's stored JSON shape (attribute `acl`). */
export interface BucketAcl {
  Owner: string;
  Grantees: { Permission: Permission; Access: string; Type: 'CanonicalUser' | 'Group' }[];
  /**
   * This gateway's own flag: `Grantees` is the whole ACL, so the owner holds only what it lists
   * (an ACL put with no grants revokes everything). Absent (versitygw's ACLs, and those written
   * before the flag): the owner also holds FULL_CONTROL.
   */
  Exact?: boolean;
}

/** A bucket's public access block (PutPublicAccessBlock), every setting false unless given. */
export interface PublicAccessBlock {
  BlockPublicAcls: boolean;
  IgnorePublicAcls: boolean;
  BlockPublicPolicy: boolean;
  RestrictPublicBuckets: boolean;
}

/** Bucket object-lock configuration in versitygw's stored JSON shape (attribute `bucket-lock`). */
export interface BucketLockConfig {
  Enabled: boolean;
  DefaultRetention?: { Mode: ObjectLockMode; Days?: number; Years?: number };
  CreatedAt?: string;
}

export interface CreateBucketInput {
  bucket: string;
  /** Access key of the creating account: recorded as the owner. */
  owner: string;
  acl: BucketAcl;
  objectLockEnabled?: boolean;
  ownership?: ObjectOwnership;
}

export interface BucketSummary {
  name: string;
  creationDate: Date;
  owner?: string;
}

export interface ListBucketsInput {
  /** Only buckets owned by this access key; undefined lists every bucket (admin). */
  owner?: string;
  prefix?: string;
  continuationToken?: string;
  maxBuckets?: number;
}

export interface ListBucketsOutput {
  buckets: BucketSummary[];
  continuationToken?: string;
}

export interface HeadBucketOutput {
  region?: string;
}
