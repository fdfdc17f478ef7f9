// IamStore: the gateway's CredentialStore for multi-user mode. The root account comes from
// --access/--secret and is never stored; other accounts live in versitygw's users.json. Lookups
// are served from memory; a stat of the file per lookup notices when another gateway (or an
// operator) replaced it, and the file is then read again. Writes are serialised in-process and
// across gateways (users-lock.ts), and each re-reads the file first, so no update is lost.
import { mkdir } from 'node:fs/promises';
import { type Account, S3Error } from '@vgwrdma/s3-backend';
import type { Credential, CredentialStore } from '../auth/index.js';
import {
  type IamAccount,
  readUsers,
  type UsersByAccess,
  usersFingerprint,
  writeUsers,
} from './users-file.js';
import { withUsersLock } from './users-lock.js';

export interface IamStoreOptions {
  /** The root account (role admin), from --access / --secret. */
  root: { access: string; secret: string };
  /** Directory of users.json; without it the gateway is single-user (root only). */
  dir?: string;
}

/** Fields an update may change (versitygw's MutableProps). */
export interface IamAccountUpdate {
  secret?: string;
  role?: IamAccount['role'];
  userID?: number;
  groupID?: number;
  projectID?: number;
  displayName?: string;
  email?: string;
}

function credentialOf(a: IamAccount): Credential {
  const account: Account = Object.freeze({
    access: a.access,
    role: a.role,
    userID: a.userID,
    groupID: a.groupID,
    projectID: a.projectID,
    ...(a.displayName === undefined ? {} : { displayName: a.displayName }),
    ...(a.email === undefined ? {} : { email: a.email }),
  });
  return Object.freeze({ secret: a.secret, account });
}

export class IamStore implements CredentialStore {
  private readonly root: Credential;
  private readonly dir: string | undefined;
  private users: UsersByAccess = new Map();
  private credentials = new Map<string, Credential>();
  private fingerprint = '';
  private writing: Promise<unknown> = Promise.resolve();

  private constructor(opts: IamStoreOptions) {
    if (opts.root.access === '') throw new TypeError('IamStore: the root access key cannot be empty');
    this.root = Object.freeze({
      secret: opts.root.secret,
      account: Object.freeze({ access: opts.root.access, role: 'admin' as const }),
    });
    this.dir = opts.dir;
  }

  /** Opens the store, creating the IAM directory when it does not exist yet. */
  static async open(opts: IamStoreOptions): Promise<IamStore> {
    const store = new IamStore(opts);
    if (opts.dir !== undefined) await mkdir(opts.dir, { recursive: true, mode: 0o700 });
    await store.refresh();
    return store;
  }

  /** True when accounts beyond root can be managed (an IAM directory was given). */
  get multiUser(): boolean {
    return this.dir !== undefined;
  }

  get rootAccess(): string {
    return this.root.account.access;
  }

  async lookup(accessKey: string): Promise<Credential | undefined> {
    if (accessKey === this.root.account.access) return this.root;
    await this.refresh();
    return this.credentials.get(accessKey);
  }

  async findByEmail(email: string): Promise<Account | undefined> {
    await this.refresh();
    const wanted = email.toLowerCase();
    for (const c of this.credentials.values())
      if (c.account.email?.toLowerCase() === wanted) return c.account;
    return undefined;
  }

  async listUsers(): Promise<IamAccount[]> {
    await this.refresh();
    return [...this.users.values()];
  }

  createUser(account: IamAccount): Promise<void> {
    return this.mutate((users) => {
      if (account.access === this.root.account.access || users.has(account.access))
        throw new S3Error('XAdminUserExists');
      users.set(account.access, account);
    });
  }

  updateUser(access: string, update: IamAccountUpdate): Promise<void> {
    return this.mutate((users) => {
      const current = users.get(access);
      if (!current) throw new S3Error('XAdminUserNotFound');
      users.set(access, { ...current, ...update, access });
    });
  }

  deleteUser(access: string): Promise<void> {
    return this.mutate((users) => {
      if (!users.delete(access)) throw new S3Error('XAdminUserNotFound');
    });
  }

  /** Reloads users.json when its fingerprint changed since the last read. */
  private async refresh(): Promise<void> {
    if (this.dir === undefined) return;
    const fp = await usersFingerprint(this.dir);
    if (fp === this.fingerprint) return;
    const users = await readUsers(this.dir);
    this.install(users, fp);
  }

  private install(users: UsersByAccess, fingerprint: string): void {
    this.users = users;
    this.credentials = new Map([...users].map(([k, a]) => [k, credentialOf(a)]));
    this.fingerprint = fingerprint;
  }

  private mutate(change: (users: UsersByAccess) => void): Promise<void> {
    const dir = this.dir;
    if (dir === undefined) return Promise.reject(new S3Error('XAdminMethodNotSupported'));
    const run = () =>
      withUsersLock(dir, async () => {
        const users = await readUsers(dir);
        change(users);
        await writeUsers(dir, users);
        this.install(users, await usersFingerprint(dir));
      });
    const next = this.writing.then(run, run);
    this.writing = next.catch(() => undefined);
    return next;
  }
}
