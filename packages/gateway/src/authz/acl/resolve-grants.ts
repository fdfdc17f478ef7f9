// Requested grants (headers or an AccessControlPolicy body) into stored grantees: an id must be
// an account (InvalidArgument "Invalid id" otherwise), an e-mail address must belong to one
// (UnresolvableGrantByEmailAddress otherwise) and is stored as that account's id.
import { S3Error } from '@vgwrdma/backend-contract';
import type { CredentialStore } from '../../auth/index.js';
import type { Grantee } from './canned-acl.js';
import { invalidArgument, type RequestedGrant } from './grant-headers.js';

async function resolveOne(g: RequestedGrant, accounts: CredentialStore): Promise<Grantee> {
  if (g.kind === 'uri') return { Permission: g.permission, Access: g.value, Type: 'Group' };
  if (g.kind === 'id') {
    if (!(await accounts.lookup(g.value))) throw invalidArgument('CanonicalUser/ID', g.value, 'Invalid id');
    return { Permission: g.permission, Access: g.value, Type: 'CanonicalUser' };
  }
  const account = await accounts.findByEmail?.(g.value);
  if (!account) throw new S3Error('UnresolvableGrantByEmailAddress');
  return { Permission: g.permission, Access: account.access, Type: 'CanonicalUser' };
}

export async function resolveGrants(
  grants: readonly RequestedGrant[],
  accounts: CredentialStore,
): Promise<Grantee[]> {
  const out: Grantee[] = [];
  for (const g of grants) out.push(await resolveOne(g, accounts));
  return out;
}
