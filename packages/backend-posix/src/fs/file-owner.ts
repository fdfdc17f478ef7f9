// versitygw's posix --chuid / --chgid: new object files, and the directories made for them, are
// owned by the requesting account's users.json userID / groupID instead of the gateway's user.
// An account without the id (the root account, or users.json without it) keeps the gateway's;
// -1 leaves that half of the ownership unchanged, as chown(2) does. Needs the privilege to chown
// (root or CAP_CHOWN): a refused chown fails the write, nothing is published.
import { chown } from 'node:fs/promises';
import { relative, sep } from 'node:path';

export interface FileOwner {
  readonly uid: number;
  readonly gid: number;
}

/** Which halves to change (--chuid, --chgid). */
export interface ChownPolicy {
  readonly uid: boolean;
  readonly gid: boolean;
}

/** The owner for a write by `account`, or undefined when nothing is to change. */
export function accountOwner(
  policy: ChownPolicy | undefined,
  account: { readonly userID?: number; readonly groupID?: number } | undefined,
): FileOwner | undefined {
  if (!policy || !account) return undefined;
  const uid = policy.uid && account.userID !== undefined ? account.userID : -1;
  const gid = policy.gid && account.groupID !== undefined ? account.groupID : -1;
  return uid === -1 && gid === -1 ? undefined : { uid, gid };
}

/** chowns the directories `mkdir -p` made: `first` (what it returned) down to `last`. */
export async function chownCreatedDirs(
  first: string | undefined,
  last: string,
  owner: FileOwner,
): Promise<void> {
  if (first === undefined) return;
  const rest = relative(first, last);
  const dirs = [first];
  let cur = first;
  for (const part of rest === '' ? [] : rest.split(sep)) {
    cur = `${cur}${sep}${part}`;
    dirs.push(cur);
  }
  for (const d of dirs) await chown(d, owner.uid, owner.gid);
}
