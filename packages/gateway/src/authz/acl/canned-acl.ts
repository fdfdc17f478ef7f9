// The canned ACLs (x-amz-acl) as the grants S3 stores for them. `owner` is the owner of the
// bucket or object the ACL is for, `bucketOwner` the owner of its bucket (the bucket-owner-*
// values grant it access to an object someone else wrote; on a bucket they are `private`).
// Group grants come first, in the order Ceph RGW lists them (clients index grants by position).
import type { BucketAcl, Permission } from '@vgwrdma/backend-contract';
import { ALL_USERS, AUTHENTICATED_USERS, invalidArgument } from './grant-headers.js';

export type Grantee = BucketAcl['Grantees'][number];

export const user = (access: string, permission: Permission): Grantee => ({
  Permission: permission,
  Access: access,
  Type: 'CanonicalUser',
});
const group = (uri: string, permission: Permission): Grantee => ({
  Permission: permission,
  Access: uri,
  Type: 'Group',
});

type Build = (owner: string, bucketOwner: string) => Grantee[];
const other = (owner: string, bucketOwner: string, permission: Permission): Grantee[] =>
  bucketOwner !== '' && bucketOwner !== owner ? [user(bucketOwner, permission)] : [];

// biome-ignore format: a table reads best one row per line
const CANNED: Readonly<Record<string, Build>> = {
  'private': (o) => [user(o, 'FULL_CONTROL')],
  'public-read': (o) => [group(ALL_USERS, 'READ'), user(o, 'FULL_CONTROL')],
  'public-read-write': (o) => [group(ALL_USERS, 'READ'), group(ALL_USERS, 'WRITE'), user(o, 'FULL_CONTROL')],
  'authenticated-read': (o) => [group(AUTHENTICATED_USERS, 'READ'), user(o, 'FULL_CONTROL')],
  'bucket-owner-read': (o, b) => [user(o, 'FULL_CONTROL'), ...other(o, b, 'READ')],
  'bucket-owner-full-control': (o, b) => [user(o, 'FULL_CONTROL'), ...other(o, b, 'FULL_CONTROL')],
};

/** The stored ACL for canned `value`; InvalidArgument naming x-amz-acl when there is no such value. */
export function cannedAcl(value: string, owner: string, bucketOwner = owner): BucketAcl {
  const build = Object.hasOwn(CANNED, value) ? CANNED[value] : undefined;
  if (!build) throw invalidArgument('x-amz-acl', value);
  return { Owner: owner, Grantees: build(owner, bucketOwner), Exact: true };
}
