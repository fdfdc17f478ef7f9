// AccountStore: where the accounts other than root live (versitygw's IAMService). The users.json
// directory (users-file-store.ts) is one; the app adds LDAP and an object in an S3 bucket. IamStore
// (iam-store.ts) puts the root account and, for remote stores, the cache (account-cache.ts) in
// front. Implementations answer S3Error('XAdminUserExists') / S3Error('XAdminUserNotFound') so the
// admin API maps them the same way whatever the store.
import { S3Error } from '@vgwrdma/backend-contract';
import type { IamAccount, UsersByAccess } from './users-file.js';

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

export interface AccountStore {
  /** Names the store in logs and the banner (`users.json in /etc/vgw`, `ldap://host:389`); no secrets. */
  readonly description: string;
  /** The account with this access key, or undefined. */
  get(access: string): Promise<IamAccount | undefined>;
  list(): Promise<IamAccount[]>;
  create(account: IamAccount): Promise<void>;
  update(access: string, update: IamAccountUpdate): Promise<void>;
  delete(access: string): Promise<void>;
  /** Releases connections; the store is not used afterwards. */
  close?(): Promise<void>;
}

/** `current` with `update` applied; the access key never changes. */
export function applyUpdate(current: IamAccount, update: IamAccountUpdate): IamAccount {
  const next: IamAccount = { ...current, access: current.access };
  for (const [k, v] of Object.entries(update) as [keyof IamAccountUpdate, unknown][])
    if (v !== undefined) (next as unknown as Record<string, unknown>)[k] = v;
  return next;
}

/** One change to a whole accounts document, applied by a store inside its read-modify-write. */
export type AccountsEdit = (users: UsersByAccess) => void;

/**
 * The create / update / delete of AccountStore as edits of the document, with the admin API's
 * errors, for the stores that keep all accounts in one users.json (a file, an object).
 */
export const accountEdits = {
  create:
    (account: IamAccount): AccountsEdit =>
    (users) => {
      if (users.has(account.access)) throw new S3Error('XAdminUserExists');
      users.set(account.access, account);
    },
  update:
    (access: string, update: IamAccountUpdate): AccountsEdit =>
    (users) => {
      const current = users.get(access);
      if (!current) throw new S3Error('XAdminUserNotFound');
      users.set(access, applyUpdate(current, update));
    },
  delete:
    (access: string): AccountsEdit =>
    (users) => {
      if (!users.delete(access)) throw new S3Error('XAdminUserNotFound');
    },
};

/**
 * Base of the stores that keep every account in one users.json document (a file, an object):
 * create / update / delete are `accountEdits` applied by the subclass's read-modify-write
 * (`writeDocument`), one at a time from this process (a failed write does not stop the next).
 */
export abstract class AccountsDocumentStore implements AccountStore {
  private writing: Promise<unknown> = Promise.resolve();

  abstract readonly description: string;
  abstract get(access: string): Promise<IamAccount | undefined>;
  abstract list(): Promise<IamAccount[]>;

  /** Reads the document, applies `edit`, writes it back; never called while another runs. */
  protected abstract writeDocument(edit: AccountsEdit): Promise<void>;

  create(account: IamAccount): Promise<void> {
    return this.mutate(accountEdits.create(account));
  }

  update(access: string, update: IamAccountUpdate): Promise<void> {
    return this.mutate(accountEdits.update(access, update));
  }

  delete(access: string): Promise<void> {
    return this.mutate(accountEdits.delete(access));
  }

  private mutate(edit: AccountsEdit): Promise<void> {
    const run = () => this.writeDocument(edit);
    const next = this.writing.then(run, run);
    this.writing = next.catch(() => undefined);
    return next;
  }
}
