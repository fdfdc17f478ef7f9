// The internal IAM service (versitygw --iam-dir): accounts in `<dir>/users.json`. Lookups are
// served from memory; a stat of the file per lookup notices when another gateway (or an operator)
// replaced it, and the file is then read again — so unlike the remote stores it needs no TTL
// cache: a change is seen by the next request. Writes are serialised in-process and across
// gateways (users-lock.ts), and each re-reads the file first, so no update is lost.
import { mkdir } from 'node:fs/promises';
import { AccountsDocumentStore, type AccountsEdit } from './account-store.js';
import {
  type IamAccount,
  readUsers,
  type UsersByAccess,
  usersFingerprint,
  usersPath,
  writeUsers,
} from './users-file.js';
import { withUsersLock } from './users-lock.js';

export class UsersFileStore extends AccountsDocumentStore {
  private users: UsersByAccess = new Map();
  private fingerprint = '';

  private constructor(private readonly dir: string) {
    super();
  }

  /** Opens the store, creating the IAM directory when it does not exist yet. */
  static async open(dir: string): Promise<UsersFileStore> {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const store = new UsersFileStore(dir);
    await store.refresh();
    return store;
  }

  get description(): string {
    return usersPath(this.dir);
  }

  async get(access: string): Promise<IamAccount | undefined> {
    await this.refresh();
    return this.users.get(access);
  }

  async list(): Promise<IamAccount[]> {
    await this.refresh();
    return [...this.users.values()];
  }

  /** Reloads users.json when its fingerprint changed since the last read. */
  private async refresh(): Promise<void> {
    const fp = await usersFingerprint(this.dir);
    if (fp === this.fingerprint) return;
    const users = await readUsers(this.dir);
    this.users = users;
    this.fingerprint = fp;
  }

  protected writeDocument(edit: AccountsEdit): Promise<void> {
    return withUsersLock(this.dir, async () => {
      const users = await readUsers(this.dir);
      edit(users);
      await writeUsers(this.dir, users);
      this.users = users;
      this.fingerprint = await usersFingerprint(this.dir);
    });
  }
}
