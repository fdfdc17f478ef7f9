// Which ACL permission each action needs, and whether a stored bucket ACL grants it to an
// account. As in versitygw, the bucket ACL also governs its objects. Actions missing from the
// table (bucket configuration, s3:BypassGovernanceRetention) are for the owner, or whoever a
// policy allows.
import type { BucketAcl, Permission } from '@vgwrdma/s3-backend';
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

export function permissionFor(action: string): Permission | undefined {
  return NEEDS.get(action);
}

/** Does `acl` give `access` ('' = anonymous) the permission `action` needs? */
export function aclGrants(acl: BucketAcl, access: string, action: string): boolean {
  const needed = permissionFor(action);
  if (!needed) return false;
  return acl.Grantees.some((g) => {
    if (g.Permission !== needed && g.Permission !== 'FULL_CONTROL') return false;
    if (g.Type === 'CanonicalUser') return access !== '' && g.Access === access;
    if (g.Access === ALL_USERS) return true;
    return g.Access === AUTHENTICATED_USERS && access !== '';
  });
}

/** An ACL that grants anything to everyone (for GetBucketPolicyStatus-style reports). */
export function aclIsPublic(acl: BucketAcl): boolean {
  return acl.Grantees.some((g) => g.Type === 'Group' && g.Access === ALL_USERS);
}
