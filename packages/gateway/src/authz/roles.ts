// What an account's role allows beyond bucket ACLs and policies, as in versitygw: `admin`
// passes every check (and alone reaches the admin API), `userplus` may also create buckets,
// `user` may only use the buckets it owns or is granted.
import { type Account, type AccountRole, S3Error } from '@vgwrdma/backend-contract';

/** Actions only some roles may perform, whatever policy or ACL says. */
const ROLE_ONLY: ReadonlyMap<string, ReadonlySet<AccountRole>> = new Map([
  ['s3:CreateBucket', new Set<AccountRole>(['admin', 'userplus'])],
]);

/** Throws AccessDenied when `account`'s role may not perform `action`. */
export function checkRole(action: string, account: Account): void {
  const roles = ROLE_ONLY.get(action);
  if (roles && !roles.has(account.role)) throw new S3Error('AccessDenied');
}
