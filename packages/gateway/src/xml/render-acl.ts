// AccessControlPolicy documents for bucket and object ACLs: the owner, then every grant the ACL
// makes (the owner's implicit FULL_CONTROL included for ACLs without the Exact flag). Accounts
// show their display name; groups show their URI and nothing else, as S3 does.
import type { BucketAcl, ObjectAclOutput, Permission } from '@vgwrdma/backend-contract';
import { effectiveGrantees } from '../authz/acl/acl-permissions.js';
import { each, el, group, xmlDocument } from './document.js';

const XSI = 'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"';
const ALL_USERS = 'http://acs.amazonaws.com/groups/global/AllUsers';

/** Display name by account id; ids without an entry show the id. */
export type DisplayNames = ReadonlyMap<string, string>;

type Grantee = BucketAcl['Grantees'][number];

function grantXml(g: Grantee, names: DisplayNames): string {
  // versitygw's newer trees spell the AllUsers group 'all-users'.
  const who =
    g.Type === 'Group'
      ? el('URI', g.Access === 'all-users' ? ALL_USERS : g.Access)
      : el('ID', g.Access) + el('DisplayName', names.get(g.Access) ?? g.Access);
  return group(
    'Grant',
    `<Grantee ${XSI} xsi:type="${g.Type}">${who}</Grantee>${el('Permission', g.Permission)}`,
  );
}

/**
 * The grants of `acl` once each (a stored ACL may repeat the owner's implicit grant), group
 * grants before account grants, each kind in stored order: Ceph RGW's shape, which clients
 * and test suites index by position (a `public-read-write` bucket's third grant is its owner).
 */
export function shownGrantees(acl: BucketAcl): Grantee[] {
  const seen = new Set<string>();
  const once = effectiveGrantees(acl).filter((g) => {
    const k = `${g.Type}\0${g.Access}\0${g.Permission}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
  return [...once.filter((g) => g.Type === 'Group'), ...once.filter((g) => g.Type !== 'Group')];
}

/** Every account id the rendered document names (for the display-name lookup). */
export function aclAccountIds(acl: BucketAcl): string[] {
  const ids = new Set([acl.Owner]);
  for (const g of acl.Grantees) if (g.Type === 'CanonicalUser') ids.add(g.Access);
  return [...ids];
}

export function renderAcl(acl: BucketAcl, names: DisplayNames = new Map()): string {
  return xmlDocument(
    'AccessControlPolicy',
    group('Owner', el('ID', acl.Owner) + el('DisplayName', names.get(acl.Owner) ?? acl.Owner)) +
      group(
        'AccessControlList',
        each(shownGrantees(acl), (g) => grantXml(g, names)),
      ),
  );
}

/** The contract's object ACL as the stored shape (exact: it lists the owner's grant itself). */
export function objectAclToStored(acl: ObjectAclOutput): BucketAcl {
  return {
    Owner: acl.owner.id,
    Grantees: acl.grants.map((g) => ({
      Permission: g.permission as Permission,
      Access: (g.grantee.type === 'Group' ? g.grantee.uri : g.grantee.id) ?? '',
      Type: g.grantee.type,
    })),
    Exact: true,
  };
}

/** The stored shape as the contract's object ACL. */
export function storedToObjectAcl(acl: BucketAcl): ObjectAclOutput {
  return {
    owner: { id: acl.Owner },
    grants: effectiveGrantees(acl).map((g) => ({
      grantee:
        g.Type === 'Group'
          ? { type: 'Group' as const, uri: g.Access }
          : { type: 'CanonicalUser' as const, id: g.Access },
      permission: g.Permission,
    })),
  };
}
