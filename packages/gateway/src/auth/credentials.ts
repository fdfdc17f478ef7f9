// An in-memory CredentialStore for fixed access keys (config files, tests). Stores backed by an
// IAM service implement the same one-method interface.
import type { Account } from '@vgwrdma/backend-contract';
import type { Credential, CredentialStore } from './types.js';

export interface StaticCredentialEntry {
  access: string;
  secret: string;
  account?: Partial<Account>;
}

export function staticCredentials(entries: StaticCredentialEntry[]): CredentialStore {
  const byAccess = new Map<string, Credential>();
  for (const entry of entries) {
    if (entry.access === '') throw new TypeError('staticCredentials: an access key cannot be empty');
    if (byAccess.has(entry.access))
      throw new TypeError(`staticCredentials: duplicate access key ${entry.access}`);
    // The account's access key is always the one it is looked up by.
    const account: Account = Object.freeze({ role: 'user', ...entry.account, access: entry.access });
    byAccess.set(entry.access, Object.freeze({ secret: entry.secret, account }));
  }
  return {
    lookup: (accessKey) => Promise.resolve(byAccess.get(accessKey)),
  };
}
