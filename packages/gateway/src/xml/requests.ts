// Typed readers for every XML request body the gateway accepts. Each answers a value in the
// backend's types or throws MalformedXML / the S3 validation error the field calls for.

import {
  type BucketLockConfig,
  CHECKSUM_ALGORITHMS,
  type ChecksumAlgorithm,
  type Checksums,
  type CompletedPart,
  type ObjectLockMode,
  type ObjectOwnership,
  type ObjectRetention,
  type Permission,
  S3Error,
  type TagSet,
  type VersioningStatus,
} from '@vgwrdma/backend-contract';
import { GROUPS, invalidArgument, type RequestedGrant } from '../authz/acl/grant-headers.js';
import { MAX_KEY_BYTES } from '../http/request-target.js';
import {
  child,
  children,
  childText,
  malformedXml,
  parseBoolean,
  parseXmlRoot,
  type XmlNode,
} from './parse.js';
import { tagSetOf } from './tag-set.js';

/** CompleteMultipartUpload: parts with their ETags and optional per-part checksums. */
export function parseCompleteMultipartUpload(xml: string): CompletedPart[] {
  const root = parseXmlRoot(xml, 'CompleteMultipartUpload');
  const parts = children(root, 'Part').map((p): CompletedPart => {
    const num = Number(childText(p, 'PartNumber'));
    const etag = childText(p, 'ETag');
    if (!Number.isInteger(num) || etag === undefined) throw malformedXml();
    const checksums = checksumsOf(p);
    return Object.keys(checksums).length > 0
      ? { partNumber: num, etag, checksums }
      : { partNumber: num, etag };
  });
  if (parts.length === 0) throw malformedXml();
  return parts;
}

/** ChecksumCRC32, ChecksumSHA256, ... children of a part. */
function checksumsOf(node: XmlNode): Checksums {
  const out: Checksums = {};
  for (const alg of CHECKSUM_ALGORITHMS) {
    const v = childText(node, `Checksum${alg}`);
    if (v !== undefined) out[alg as ChecksumAlgorithm] = v;
  }
  return out;
}

interface DeleteRequest {
  objects: { key: string; versionId?: string }[];
  quiet: boolean;
}

/** S3's bound on a version id ("no more than 1,024 bytes long"), as MAX_KEY_BYTES is on keys. */
const MAX_VERSION_ID_BYTES = 1024;

/**
 * Delete (DeleteObjects): 1..1000 keys, each at most 1024 bytes (KeyTooLongError for the whole
 * request, as a key in a path: the answer echoes every key, and must not echo megabytes).
 */
export function parseDelete(xml: string): DeleteRequest {
  const root = parseXmlRoot(xml, 'Delete');
  const objects = children(root, 'Object').map((o) => {
    const key = childText(o, 'Key');
    if (key === undefined) throw malformedXml();
    if (Buffer.byteLength(key) > MAX_KEY_BYTES) throw new S3Error('KeyTooLongError');
    const versionId = childText(o, 'VersionId');
    if (versionId !== undefined && Buffer.byteLength(versionId) > MAX_VERSION_ID_BYTES)
      throw S3Error.custom('InvalidArgument', 'Invalid version id specified');
    return versionId === undefined ? { key } : { key, versionId };
  });
  if (objects.length === 0 || objects.length > 1000) throw malformedXml();
  return { objects, quiet: parseBoolean(childText(root, 'Quiet')) ?? false };
}

/** Tagging: a TagSet; `limit` is 10 for objects, 50 for buckets. */
export function parseTagging(xml: string, limit: 10 | 50): TagSet {
  const root = parseXmlRoot(xml, 'Tagging');
  const tags = children(child(root, 'TagSet'), 'Tag').map((t) => {
    const key = childText(t, 'Key');
    const value = childText(t, 'Value') ?? '';
    if (key === undefined) throw malformedXml();
    return [key, value] as const;
  });
  return tagSetOf(tags, limit);
}

/** CreateBucketConfiguration: the LocationConstraint, if any (an empty body is allowed). */
export function parseCreateBucketConfiguration(xml: string): { locationConstraint?: string } {
  if (xml.trim() === '') return {};
  const root = parseXmlRoot(xml, 'CreateBucketConfiguration');
  const lc = childText(root, 'LocationConstraint');
  return lc === undefined || lc === '' ? {} : { locationConstraint: lc };
}

export function parseVersioningConfiguration(xml: string): VersioningStatus {
  const status = childText(parseXmlRoot(xml, 'VersioningConfiguration'), 'Status');
  if (status !== 'Enabled' && status !== 'Suspended') throw malformedXml();
  return status;
}

const OWNERSHIPS: readonly ObjectOwnership[] = [
  'BucketOwnerEnforced',
  'BucketOwnerPreferred',
  'ObjectWriter',
];

export function parseOwnershipControls(xml: string): ObjectOwnership {
  const rule = child(parseXmlRoot(xml, 'OwnershipControls'), 'Rule');
  const value = childText(rule, 'ObjectOwnership');
  const found = OWNERSHIPS.find((o) => o === value);
  if (!found) throw malformedXml();
  return found;
}

function lockMode(text: string | undefined): ObjectLockMode {
  if (text !== 'GOVERNANCE' && text !== 'COMPLIANCE') throw malformedXml();
  return text;
}

/** A retention period: not a number → MalformedXML; zero or negative → InvalidRetentionPeriod (as S3). */
function positiveInt(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!Number.isInteger(n)) throw malformedXml();
  if (n <= 0) throw new S3Error('InvalidRetentionPeriod');
  return n;
}

export function parseObjectLockConfiguration(xml: string): BucketLockConfig {
  const root = parseXmlRoot(xml, 'ObjectLockConfiguration');
  const enabled = childText(root, 'ObjectLockEnabled');
  if (enabled !== undefined && enabled !== 'Enabled') throw malformedXml();
  const retention = child(child(root, 'Rule'), 'DefaultRetention');
  if (retention === undefined) return { Enabled: enabled === 'Enabled' };
  const days = positiveInt(childText(retention, 'Days'));
  const years = positiveInt(childText(retention, 'Years'));
  // Exactly one of Days and Years.
  if ((days === undefined) === (years === undefined)) throw malformedXml();
  const mode = lockMode(childText(retention, 'Mode'));
  const DefaultRetention =
    days !== undefined ? { Mode: mode, Days: days } : { Mode: mode, Years: years as number };
  return { Enabled: enabled === 'Enabled', DefaultRetention };
}

export function parseRetention(xml: string): ObjectRetention {
  const root = parseXmlRoot(xml, 'Retention');
  const until = childText(root, 'RetainUntilDate');
  if (until === undefined || Number.isNaN(Date.parse(until))) throw malformedXml();
  return { Mode: lockMode(childText(root, 'Mode')), RetainUntilDate: until };
}

export function parseLegalHold(xml: string): boolean {
  const status = childText(parseXmlRoot(xml, 'LegalHold'), 'Status');
  if (status !== 'ON' && status !== 'OFF') throw malformedXml();
  return status === 'ON';
}

const PERMISSIONS: readonly Permission[] = ['FULL_CONTROL', 'READ', 'WRITE', 'READ_ACP', 'WRITE_ACP'];

/** A parsed AccessControlPolicy body: the owner it names and the grants it asks for. */
export interface AccessControlPolicyBody {
  readonly owner: string;
  readonly grants: RequestedGrant[];
}

/** AccessControlPolicy → its grants (grantee by ID, URI or EmailAddress, as its xsi:type says). */
export function parseAccessControlPolicy(xml: string): AccessControlPolicyBody {
  const root = parseXmlRoot(xml, 'AccessControlPolicy');
  const owner = childText(child(root, 'Owner'), 'ID');
  if (owner === undefined) throw new S3Error('MalformedACLError');
  const grants = children(child(root, 'AccessControlList'), 'Grant').map((g): RequestedGrant => {
    const grantee = child(g, 'Grantee');
    const permission = PERMISSIONS.find((p) => p === childText(g, 'Permission'));
    const id = childText(grantee, 'ID');
    const uri = childText(grantee, 'URI');
    const email = childText(grantee, 'EmailAddress');
    if (!permission) throw new S3Error('MalformedACLError');
    if (id !== undefined && id !== '') return { kind: 'id', value: id, permission };
    if (uri !== undefined && uri !== '') {
      if (!GROUPS.has(uri)) throw invalidArgument('Grantee/URI', uri);
      return { kind: 'uri', value: uri, permission };
    }
    if (email !== undefined && email !== '') return { kind: 'email', value: email, permission };
    throw new S3Error('MalformedACLError');
  });
  return { owner, grants };
}
