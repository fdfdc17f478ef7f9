// The two accounts the access-control e2e tests keep meeting: ALICE may create buckets
// (versitygw's `userplus`), BOB is a plain `user` (denied unless a policy or an ACL grants him).
// Tests that need other fields (an e-mail for ACL grants, long secrets) write their own.
import type { IamUser } from './iam-users.js';

export const ALICE: IamUser = { access: 'alice-key', secret: 'alice-secret', role: 'userplus' };
export const BOB: IamUser = { access: 'bob-key', secret: 'bob-secret' };
