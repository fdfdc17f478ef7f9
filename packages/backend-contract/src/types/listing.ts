// Inputs and outputs of the listing operations (objects, versions).
import type { ChecksumAlgorithm, Owner } from './common.js';

export interface ListObjectsCommon {
  bucket: string;
  prefix?: string;
  delimiter?: string;
  /** 0..1000; the gateway clamps. */
  maxKeys: number;
  fetchOwner?: boolean;
}

export interface ListObjectsV1Input extends ListObjectsCommon {
  marker?: string;
}

export interface ListObjectsV2Input extends ListObjectsCommon {
  continuationToken?: string;
  startAfter?: string;
}

export interface ListedObject {
  key: string;
  lastModified: Date;
  etag: string;
  size: number;
  storageClass: string;
  owner?: Owner;
  checksumAlgorithm?: ChecksumAlgorithm[];
}

export interface ListObjectsOutput {
  contents: ListedObject[];
  commonPrefixes: string[];
  isTruncated: boolean;
  /** v1: the marker for the next page (set when truncated and a delimiter was used, or always). */
  nextMarker?: string;
  /** v2: opaque token for the next page. */
  nextContinuationToken?: string;
}

export interface ListObjectVersionsInput {
  bucket: string;
  prefix?: string;
  delimiter?: string;
  keyMarker?: string;
  versionIdMarker?: string;
  maxKeys: number;
}

export interface ListedVersion {
  key: string;
  versionId: string;
  isLatest: boolean;
  lastModified: Date;
  etag: string;
  size: number;
  storageClass: string;
  owner?: Owner;
}

export interface ListedDeleteMarker {
  key: string;
  versionId: string;
  isLatest: boolean;
  lastModified: Date;
  owner?: Owner;
}

export interface ListObjectVersionsOutput {
  versions: ListedVersion[];
  deleteMarkers: ListedDeleteMarker[];
  commonPrefixes: string[];
  isTruncated: boolean;
  nextKeyMarker?: string;
  nextVersionIdMarker?: string;
}
