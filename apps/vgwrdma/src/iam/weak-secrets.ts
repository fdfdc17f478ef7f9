// The start-up warning for IAM accounts whose secret is shorter than 16 characters (the floor
// exposure.ts explains): one stderr line per account, naming its access key and never its
// secret. Read once at start from the account store; an account store that cannot be listed
// (a directory without list rights) gives no warning rather than stopping the start.
import type { IamStore } from '@vgwrdma/gateway';
import { MIN_SECRET_LENGTH } from '../exposure.js';

/** The warning lines (each ending in '\n') for the store's short-secret accounts; root is not listed here. */
export async function weakSecretWarnings(iam: IamStore): Promise<string[]> {
  const accounts = await iam.listUsers().catch(() => []);
  return accounts
    .filter((a) => a.secret.length < MIN_SECRET_LENGTH)
    .map(
      (a) =>
        // JSON quoting: an access key with a line break or a control character stays one line.
        `vgwrdma: WARNING: IAM account ${JSON.stringify(a.access)} has a secret shorter than ` +
        `${MIN_SECRET_LENGTH} characters: one captured request lets an attacker guess it offline; ` +
        `give it a longer one (vgwrdma admin update-user --access KEY --secret NEW).\n`,
    );
}
