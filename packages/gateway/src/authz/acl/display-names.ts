// Display names of the accounts an ACL names, for GetBucketAcl / GetObjectAcl: the account's
// displayName from users.json, or its access key (also for ids that are no account any more).
import type { CredentialStore } from '../../auth/index.js';
import type { DisplayNames } from '../../xml/render-acl.js';

export async function displayNames(ids: readonly string[], accounts: CredentialStore): Promise<DisplayNames> {
  const out = new Map<string, string>();
  for (const id of ids) {
    const name = id === '' ? undefined : (await accounts.lookup(id))?.account.displayName;
    if (name !== undefined) out.set(id, name);
  }
  return out;
}
