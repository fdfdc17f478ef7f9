// Which ACL permission each action needs, which ACL decides it (the object's own ACL for
// reading an object, its tags, attributes, retention and legal hold, and its ACL; the bucket
// ACL for everything else), and whether an ACL grants it to an account. Actions missing from
// the table (bucket configuration, s3:BypassGovernanceRetention) are for the owner, or whoever
// a policy allows.
import type { BucketAcl, Permission } from '@vgwrdma/backend-contract';
import { type Grantee, user } from './canned-acl.js';
import { ALL_USERS, AUTHENTICATED_USERS } from './grant-headers.js';

const READ = [
  's3:ListBucket',
  's3:ListBucketVersions',
  's3:ListBucketMultipartUploads',
  's3:GetObject',
  's3:GetObjectAttributes',
  's3:GetObjectTagging',
  's3:ListMultipartUploadParts',
  's3:GetObjectRetention',
  's3:GetObjectLegalHold',
  's3:GetObjectVersion',
  's3:GetObjectVersionTagging',
  's3:GetObjectVersionAttributes',
];
const WRITE = [
  's3:PutObject',
  's3:DeleteObject',
  's3:AbortMultipartUpload',
  's3:PutObjectTagging',
  's3:DeleteObjectTagging',
  's3:RestoreObject',
  's3:PutObjectRetention',
  's3:PutObjectLegalHold',
  's3:DeleteObjectVersion',
  's3:PutObjectVersionTagging',
  's3:DeleteObjectVersionTagging',
];

const NEEDS: ReadonlyMap<string, Permission> = new Map<string, Permission>([
  ...READ.map((a): [string, Permission] => [a, 'READ']),
  ...WRITE.map((a): [string, Permission] => [a, 'WRITE']),
  ['s3:GetBucketAcl', 'READ_ACP'],
  ['s3:GetObjectAcl', 'READ_ACP'],
  ['s3:GetObjectVersionAcl', 'READ_ACP'],
  ['s3:PutBucketAcl', 'WRITE_ACP'],
  ['s3:PutObjectAcl', 'WRITE_ACP'],
  ['s3:PutObjectVersionAcl', 'WRITE_ACP'],
]);

/**
 * Actions an object's own ACL decides (as on S3): reading the object and what is read from it
 * alone — its tags, attributes (checksums, size, parts), retention and legal hold — and reading
 * and writing its ACL. A bucket READ grant lists keys; it reads none of these.
 */
const BY_OBJECT_ACL: ReadonlySet<string> = new Set([
  's3:GetObject',
  's3:GetObjectVersion',
  's3:GetObjectTagging',
  's3:GetObjectVersionTagging',
  's3:GetObjectAttributes',
  's3:GetObjectVersionAttributes',
  's3:GetObjectRetention',
  's3:GetObjectLegalHold',
  's3:GetObjectAcl',
  's3:GetObjectVersionAcl',
  's3:PutObjectAcl',
  's3:PutObjectVersionAcl',
]);

/** Reading and writing an ACL: its owner may always do both, whatever the grants say. */
const ACL_ACCESS: ReadonlySet<string> = new Set([
  's3:GetBucketAcl',
  's3:PutBucketAcl',
  's3:GetObjectAcl',
  's3:GetObjectVersionAcl',
  's3:PutObjectAcl',
  's3:PutObjectVersionAcl',
]);

export function permissionFor(action: string): Permission | undefined {
  return NEEDS.get(action);
}

export function decidedByObjectAcl(action: string): boolean {
  return BY_OBJECT_ACL.has(action);
}

export function isAclAccess(action: string): boolean {
  return ACL_ACCESS.has(action);
}

/** versitygw's newer spelling of the AllUsers group in stored ACLs. */
const LEGACY_ALL_USERS = 'all-users';

function isAllUsers(g: Grantee): boolean {
  return g.Type === 'Group' && (g.Access === ALL_USERS || g.Access === LEGACY_ALL_USERS);
}

/** Every grant the ACL makes: an ACL without the Exact flag also gives its owner FULL_CONTROL. */
export function effectiveGrantees(acl: BucketAcl): readonly Grantee[] {
  if (acl.Exact || acl.Owner === '') return acl.Grantees;
  return [user(acl.Owner, 'FULL_CONTROL'), ...acl.Grantees];
}

export interface GrantOptions {
  /** The bucket's public access block sets IgnorePublicAcls: group grants count for nothing. */
  readonly ignorePublic?: boolean;
}

/** Does `acl` give `access` ('' = anonymous) the permission `action` needs? */
export function aclGrants(acl: BucketAcl, access: string, action: string, opts: GrantOptions = {}): boolean {
  const needed = permissionFor(action);
  if (!needed) return false;
  return effectiveGrantees(acl).some((g) => {
    if (g.Permission !== needed && g.Permission !== 'FULL_CONTROL') return false;
    if (g.Type === 'CanonicalUser') return access !== '' && g.Access === access;
    if (opts.ignorePublic) return false;
    if (isAllUsers(g)) return true;
    return g.Access === AUTHENTICATED_USERS && access !== '';
  });
}

/** An ACL that grants anything to AllUsers or AuthenticatedUsers (what BlockPublicAcls refuses). */
export function aclIsPublic(acl: BucketAcl): boolean {
  return acl.Grantees.some((g) => isAllUsers(g) || (g.Type === 'Group' && g.Access === AUTHENTICATED_USERS));
}
