// The ACL a request asks for, from exactly one of: x-amz-acl, x-amz-grant-* headers, or an
// AccessControlPolicy body (PutBucketAcl, PutObjectAcl). The result is exact: it lists every
// grant, the owner's included, so one with no grants revokes everything.
import { type BucketAcl, S3Error } from '@vgwrdma/backend-contract';
import type { CredentialStore } from '../../auth/index.js';
import { header, type RawHeaders } from '../../http/headers.js';
import { parseAccessControlPolicy } from '../../xml/requests.js';
import { cannedAcl } from './canned-acl.js';
import { grantsFromHeaders, hasGrantHeaders } from './grant-headers.js';
import { resolveGrants } from './resolve-grants.js';

export interface AclRequest {
  readonly headers: RawHeaders;
  /** The body of PutBucketAcl / PutObjectAcl; absent or blank when none. */
  readonly body?: string;
  /** Owner of the bucket or object the ACL is for. */
  readonly owner: string;
  /** Owner of its bucket (bucket-owner-read / bucket-owner-full-control). */
  readonly bucketOwner: string;
  readonly accounts: CredentialStore;
}

const bothGiven = () =>
  new S3Error('InvalidRequest', 'Specifying both Canned ACLs and Header Grants is not allowed.');

/** Undefined when the request names no ACL at all. */
export async function requestedAcl(r: AclRequest): Promise<BucketAcl | undefined> {
  const canned = header(r.headers, 'x-amz-acl');
  const byGrants = hasGrantHeaders(r.headers);
  const body = r.body?.trim() ?? '';
  if ([canned !== undefined, byGrants, body !== ''].filter(Boolean).length > 1) throw bothGiven();
  if (canned !== undefined) return cannedAcl(canned, r.owner, r.bucketOwner);
  const grants = byGrants
    ? grantsFromHeaders(r.headers)
    : body !== ''
      ? parseAccessControlPolicy(body).grants
      : undefined;
  if (!grants) return undefined;
  // The owner cannot be changed through an ACL: the stored owner stays, whatever the body says.
  return { Owner: r.owner, Grantees: await resolveGrants(grants, r.accounts), Exact: true };
}
