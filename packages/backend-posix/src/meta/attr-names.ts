// Attribute names of the on-disk layout (docs/posix-layout.md). They are stored as `user.<name>`
// xattrs, or as file names in the sidecar tree; versitygw reads the same names.
import { CONTENT_HEADER_NAMES } from '@vgwrdma/backend-contract';

export const ATTR = {
  etag: 'etag',
  metadata: 'metadata',
  tagging: 'X-Amz-Tagging',
  checksums: 'checksums',
  partCrc64: 'part-crc64nvme',
  mpMetadata: 'mp-metadata',
  objname: 'objname',
  retention: 'object-retention',
  legalHold: 'object-legal-hold',
  acl: 'acl',
  ownership: 'ownership',
  policy: 'policy',
  cors: 'cors',
  website: 'website',
  /** This gateway's own: the bucket notification configuration XML (versitygw keeps none). */
  notification: 'vgwrdma-notification',
  versioning: 'versioning',
  versionId: 'version-id',
  deleteMarker: 'delete-marker',
  bucketLock: 'bucket-lock',
  /** This gateway's own: the bucket's public access block, JSON. */
  publicAccessBlock: 'vgwrdma-public-access-block',
  /** This gateway's own: `<tag>-<pid>` of the process holding a multipart claim (fs/owner.ts). */
  claimOwner: 'vgwrdma-claim-owner',
  /** This gateway's own: where a part written in place lies in the upload's assembly file (JSON). */
  partAt: 'vgwrdma-part-at',
} as const;

/** content-type, cache-control, ... by ContentHeaders field. */
export const CONTENT_ATTRS = CONTENT_HEADER_NAMES;

/** The xattr namespace every attribute lives in. */
export const XATTR_PREFIX = 'user.';
