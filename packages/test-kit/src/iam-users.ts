// A versitygw users.json for --iam-dir, written atomically (temp file + rename) so a running
// gateway never reads half a file.
import { rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export interface IamUser {
  readonly access: string;
  readonly secret: string;
  /** versitygw's role; 'user' when omitted (may not create buckets). */
  readonly role?: 'admin' | 'user' | 'userplus';
  /** Shown as DisplayName in ACLs (this gateway's own field; versitygw ignores it). */
  readonly displayName?: string;
  /** What ACL grants by e-mail address resolve against. */
  readonly email?: string;
}

export async function writeUsers(dir: string, users: readonly IamUser[]): Promise<void> {
  const accessAccounts = Object.fromEntries(
    users.map((u) => [u.access, { role: 'user', ...u, userID: 0, groupID: 0, projectID: 0 }]),
  );
  const tmp = join(dir, 'users.json.tmp');
  await writeFile(tmp, JSON.stringify({ accessAccounts }));
  await rename(tmp, join(dir, 'users.json'));
}
