// AccessControlPolicy documents for bucket and object ACLs.
import type { BucketAcl, ObjectAclOutput } from '@vgwrdma/s3-backend';
import { each, el, group, xmlDocument } from './document.js';

const XSI = 'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"';

interface Grant {
  type: 'CanonicalUser' | 'Group';
  id?: string | undefined;
  uri?: string | undefined;
  permission: string;
}

function grantXml(g: Grant): string {
  const who = g.type === 'Group' ? el('URI', g.uri) : el('ID', g.id) + el('DisplayName', g.id);
  return group(
    'Grant',
    `<Grantee ${XSI} xsi:type="${g.type}">${who}</Grantee>${el('Permission', g.permission)}`,
  );
}

function policy(ownerId: string, grants: readonly Grant[]): string {
  return xmlDocument(
    'AccessControlPolicy',
    group('Owner', el('ID', ownerId) + el('DisplayName', ownerId)) +
      group('AccessControlList', each(grants, grantXml)),
  );
}

/** The owner always holds FULL_CONTROL; stored grants follow. */
export function renderBucketAcl(acl: BucketAcl): string {
  const grants: Grant[] = [
    { type: 'CanonicalUser', id: acl.Owner, permission: 'FULL_CONTROL' },
    // A stored FULL_CONTROL grant to the owner (an AccessControlPolicy body usually has one) is
    // the grant above: listing it twice would show clients a different ACL than they set.
    ...acl.Grantees.filter(
      (g) => !(g.Type === 'CanonicalUser' && g.Access === acl.Owner && g.Permission === 'FULL_CONTROL'),
    ).map((g) =>
      g.Type === 'Group'
        ? { type: g.Type, uri: g.Access, permission: g.Permission }
        : { type: g.Type, id: g.Access, permission: g.Permission },
    ),
  ];
  return policy(acl.Owner, grants);
}

export function renderObjectAcl(acl: ObjectAclOutput): string {
  return policy(
    acl.owner.id,
    acl.grants.map((g) => ({
      type: g.grantee.type,
      id: g.grantee.id,
      uri: g.grantee.uri,
      permission: g.permission,
    })),
  );
}

/** The stored bucket-ACL shape as an object ACL (PutObjectAcl takes the same document). */
export function bucketAclToObjectAcl(acl: BucketAcl): ObjectAclOutput {
  return {
    owner: { id: acl.Owner },
    grants: acl.Grantees.map((g) => ({
      grantee:
        g.Type === 'Group'
          ? { type: 'Group' as const, uri: g.Access }
          : { type: 'CanonicalUser' as const, id: g.Access },
      permission: g.Permission,
    })),
  };
}
