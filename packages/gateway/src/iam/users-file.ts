// versitygw's internal IAM file: `<dir>/users.json` =
// {"accessAccounts": {"<access>": {"access","secret","role","userID","groupID","projectID"}}},
// plus this gateway's optional "displayName" and "email" (versitygw ignores them).
// Reads tolerate a missing or empty file; writes go to a temp file renamed over the original,
// so another gateway reading the file sees the old or the new version, never half of one.
import { randomBytes } from 'node:crypto';
import { readFile, rename, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AccountRole } from '@vgwrdma/backend-contract';

export const USERS_FILE = 'users.json';
export const ROLES = ['user', 'admin', 'userplus'] as const satisfies readonly AccountRole[];

export interface IamAccount {
  access: string;
  secret: string;
  role: AccountRole;
  userID: number;
  groupID: number;
  projectID: number;
  /** DisplayName in ACLs; the access key when absent. */
  displayName?: string;
  /** Resolves ACL grants by e-mail address. */
  email?: string;
}

const int = (v: unknown): number => (typeof v === 'number' && Number.isInteger(v) ? v : 0);
const text = <K extends string>(name: K, v: unknown): { [P in K]?: string } =>
  (typeof v === 'string' && v !== '' ? { [name]: v } : {}) as { [P in K]?: string };

export function isRole(v: unknown): v is AccountRole {
  return typeof v === 'string' && (ROLES as readonly string[]).includes(v);
}

/** One stored entry; entries without a string secret are skipped. */
function toAccount(access: string, raw: unknown): IamAccount | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const r = raw as Record<string, unknown>;
  if (typeof r.secret !== 'string') return undefined;
  return {
    access,
    secret: r.secret,
    role: isRole(r.role) ? r.role : 'user',
    userID: int(r.userID),
    groupID: int(r.groupID),
    projectID: int(r.projectID),
    ...text('displayName', r.displayName),
    ...text('email', r.email),
  };
}

export type UsersByAccess = Map<string, IamAccount>;

export function usersPath(dir: string): string {
  return join(dir, USERS_FILE);
}

/** A cheap fingerprint of the file (changes whenever another writer renames a new one in). */
export async function usersFingerprint(dir: string): Promise<string> {
  try {
    const s = await stat(usersPath(dir), { bigint: true });
    return `${s.ino}:${s.size}:${s.mtimeNs}`;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 'absent';
    throw err;
  }
}

/** Parses a users.json document (versitygw's iAMConfig); an empty text is no accounts. */
export function parseUsersDocument(text: string): UsersByAccess {
  const out: UsersByAccess = new Map();
  if (text.trim() === '') return out;
  const doc = JSON.parse(text) as { accessAccounts?: Record<string, unknown> | null };
  for (const [access, raw] of Object.entries(doc.accessAccounts ?? {})) {
    const account = toAccount(access, raw);
    if (account) out.set(access, account);
  }
  return out;
}

/** The users.json text for `users`, sorted by access key. */
export function serializeUsers(users: UsersByAccess): string {
  const accessAccounts: Record<string, IamAccount> = {};
  for (const [access, a] of [...users].sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0))) {
    accessAccounts[access] = {
      access,
      secret: a.secret,
      role: a.role,
      userID: a.userID,
      groupID: a.groupID,
      projectID: a.projectID,
      ...text('displayName', a.displayName),
      ...text('email', a.email),
    };
  }
  return `${JSON.stringify({ accessAccounts }, null, 2)}\n`;
}

export async function readUsers(dir: string): Promise<UsersByAccess> {
  let content: string;
  try {
    content = await readFile(usersPath(dir), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return new Map();
    throw err;
  }
  return parseUsersDocument(content);
}

export async function writeUsers(dir: string, users: UsersByAccess): Promise<void> {
  const target = usersPath(dir);
  const temp = `${target}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  await writeFile(temp, serializeUsers(users), { mode: 0o600 });
  await rename(temp, target);
}
