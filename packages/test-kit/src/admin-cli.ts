// adminCli: `vgwrdma admin` (the built app's admin command) pointed at one gateway with one
// account's keys, as an operator runs it: `admin('list-users')` is
// `vgwrdma admin -a <access> -s <secret> -er <endpoint> list-users`. accountFlags spells an
// account as create-user/update-user's long flags, from the same IamUser the scenes write.
import { type Credentials, type Finished, ROOT_CREDENTIALS, runMain } from './gateway-process.js';
import type { IamUser } from './iam-users.js';

/** Runs `vgwrdma admin <keys> <endpoint> ...args` to its exit. */
export type AdminCli = (...args: string[]) => Promise<Finished>;

/** The admin command for `endpoint`, signing as `credentials` (the root account when omitted). */
export function adminCli(endpoint: string, credentials: Credentials = ROOT_CREDENTIALS): AdminCli {
  return (...args) =>
    runMain(['admin', '-a', credentials.access, '-s', credentials.secret, '-er', endpoint, ...args]);
}

/** The account's fields in create-user's order, each with its long flag. */
const ACCOUNT_FLAGS: readonly (readonly [keyof IamUser, string])[] = [
  ['access', '--access'],
  ['secret', '--secret'],
  ['role', '--role'],
  ['displayName', '--display-name'],
  ['email', '--email'],
];

/** `--access A --secret S [--role R] [--display-name D] [--email E]` for the fields `user` has. */
export function accountFlags(user: IamUser): string[] {
  return ACCOUNT_FLAGS.flatMap(([field, flag]) => {
    const value = user[field];
    return value === undefined ? [] : [flag, value];
  });
}
