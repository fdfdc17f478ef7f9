// IamStore: the gateway's CredentialStore for multi-user mode. The root account comes from
// --access/--secret and is never stored; the other accounts live in an AccountStore — versitygw's
// users.json (UsersFileStore) or one the embedder brings (the app's LDAP and S3-bucket stores,
// usually behind CachedAccountStore). Without a store the gateway is single-user (root only) and
// the admin user API answers XAdminMethodNotSupported, as versitygw's single-account mode does.
import { type Account, S3Error } from '@vgwrdma/backend-contract';
import type { Credential, CredentialStore } from '../auth/index.js';
import type { AccountStore, IamAccountUpdate } from './account-store.js';
import type { IamAccount } from './users-file.js';
import { UsersFileStore } from './users-file-store.js';

export type { IamAccountUpdate } from './account-store.js';

export interface IamStoreOptions {
  /** The root account (role admin), from --access / --secret. */
  root: { access: string; secret: string };
  /** Directory of users.json (versitygw --iam-dir). */
  dir?: string;
  /** Any other account store (takes precedence over `dir`). */
  store?: AccountStore;
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
  private readonly store: AccountStore | undefined;
  /** Stores hand back the same object until the account changes: convert each once. */
  private readonly converted = new WeakMap<IamAccount, Credential>();

  private constructor(opts: IamStoreOptions, store: AccountStore | undefined) {
    if (opts.root.access === '') throw new TypeError('IamStore: the root access key cannot be empty');
    this.root = Object.freeze({
      secret: opts.root.secret,
      account: Object.freeze({ access: opts.root.access, role: 'admin' as const }),
    });
    this.store = store;
  }

  /** Opens the store (users.json: creating the IAM directory when it does not exist yet). */
  static async open(opts: IamStoreOptions): Promise<IamStore> {
    const store = opts.store ?? (opts.dir === undefined ? undefined : await UsersFileStore.open(opts.dir));
    return new IamStore(opts, store);
  }

  /** True when accounts beyond root can be managed (an account store is configured). */
  get multiUser(): boolean {
    return this.store !== undefined;
  }

  get rootAccess(): string {
    return this.root.account.access;
  }

  /** Where the accounts live (no secrets), or undefined in single-user mode. */
  get description(): string | undefined {
    return this.store?.description;
  }

  async lookup(accessKey: string): Promise<Credential | undefined> {
    if (accessKey === this.root.account.access) return this.root;
    const found = await this.store?.get(accessKey);
    if (found === undefined) return undefined;
    let credential = this.converted.get(found);
    if (!credential) {
      credential = credentialOf(found);
      this.converted.set(found, credential);
    }
    return credential;
  }

  async findByEmail(email: string): Promise<Account | undefined> {
    const wanted = email.toLowerCase();
    for (const a of await this.listUsers())
      if (a.email?.toLowerCase() === wanted) return (await this.lookup(a.access))?.account;
    return undefined;
  }

  async listUsers(): Promise<IamAccount[]> {
    return this.store ? this.store.list() : [];
  }

  createUser(account: IamAccount): Promise<void> {
    if (account.access === this.root.account.access) return Promise.reject(new S3Error('XAdminUserExists'));
    return this.withStore((s) => s.create(account));
  }

  updateUser(access: string, update: IamAccountUpdate): Promise<void> {
    return this.withStore((s) => s.update(access, update));
  }

  deleteUser(access: string): Promise<void> {
    return this.withStore((s) => s.delete(access));
  }

  /** Closes the account store's connections. */
  async close(): Promise<void> {
    await this.store?.close?.();
  }

  private withStore(fn: (store: AccountStore) => Promise<void>): Promise<void> {
    if (this.store === undefined) return Promise.reject(new S3Error('XAdminMethodNotSupported'));
    return fn(this.store);
  }
}
