// The accounts and group grantees of the ACL e2e tests (access-control, object-acl,
// compat-rgw-acl-policy): Alice may create buckets and has a display name, Bob has only an
// e-mail address; the two S3 groups are named by their URIs, as grants carry them.
import type { IamUser } from '@vgwrdma/test-kit';

export const ALICE: IamUser = {
  access: 'alice-key',
  secret: 'alice-secret',
  role: 'userplus',
  displayName: 'Alice L.',
};
export const BOB: IamUser = { access: 'bob-key', secret: 'bob-secret', email: 'bob@example.com' };

/** The AllUsers group (anyone, anonymous included). */
export const ALL_USERS = 'http://acs.amazonaws.com/groups/global/AllUsers';
/** The AuthenticatedUsers group (any signed request). */
export const AUTH_USERS = 'http://acs.amazonaws.com/groups/global/AuthenticatedUsers';
