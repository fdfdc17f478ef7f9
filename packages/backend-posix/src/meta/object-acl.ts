// An object's `acl` attribute: the bucket ACL's JSON shape (`{"Owner","Grantees","Exact"}`,
// docs/posix-layout.md) ↔ the Backend contract's ObjectAclOutput. versitygw keeps no object
// ACLs, so an object it wrote has no such attribute: that reads as "inherited" (access follows
// the bucket ACL) with the bucket owner as owner.
import type { BucketAcl, ObjectAclOutput, Permission } from '@vgwrdma/backend-contract';

type Grantee = BucketAcl['Grantees'][number];

export function encodeObjectAcl(acl: ObjectAclOutput): string {
  const grantees: Grantee[] = acl.grants.map((g) => ({
    Permission: g.permission as Permission,
    Access: (g.grantee.type === 'Group' ? g.grantee.uri : g.grantee.id) ?? '',
    Type: g.grantee.type,
  }));
  const stored: BucketAcl = { Owner: acl.owner.id, Grantees: grantees, Exact: true };
  return JSON.stringify(stored);
}

function grantOf(g: Grantee): ObjectAclOutput['grants'][number] {
  return {
    grantee: g.Type === 'Group' ? { type: 'Group', uri: g.Access } : { type: 'CanonicalUser', id: g.Access },
    permission: g.Permission,
  };
}

/** The stored ACL (or its absence) as the contract's value; `bucketOwner` owns an object without one. */
export function decodeObjectAcl(stored: BucketAcl | undefined, bucketOwner: string): ObjectAclOutput {
  if (!stored) {
    const owner = { id: bucketOwner };
    return { owner, grants: [grantOf(ownerGrant(bucketOwner))], inherited: true };
  }
  const listed = stored.Grantees ?? [];
  // Written without the flag (by hand or an older tool): the owner holds FULL_CONTROL as well.
  const grantees = stored.Exact ? listed : [ownerGrant(stored.Owner), ...listed];
  return { owner: { id: stored.Owner }, grants: grantees.map(grantOf) };
}

function ownerGrant(owner: string): Grantee {
  return { Permission: 'FULL_CONTROL', Access: owner, Type: 'CanonicalUser' };
}
