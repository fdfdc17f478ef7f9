// Accounts as LDAP entries (versitygw's LDAP IAM service, --iam-ldap-*): one entry per account,
// `<access-atr>=<access>,<query-base>`, with the configured object classes and attribute names for
// the access key, secret, role, user/group/project id. Lookups search the query base's subtree for
// the access-key attribute; update and delete act on the entry that search finds. Every value that
// reaches the directory is escaped by ldapts — filter values by its Filter objects (RFC 4515),
// DN values by its DN class (RFC 4514) — so an access key such as `*)(uid=*` is only ever a
// literal. Attribute and class names come from the operator and are checked at startup.

import { S3Error } from '@vgwrdma/backend-contract';
import {
  type AccountStore,
  applyUpdate,
  type IamAccount,
  type IamAccountUpdate,
  isRole,
} from '@vgwrdma/gateway';
import {
  AlreadyExistsError,
  AndFilter,
  Change,
  Client,
  DN,
  type Entry,
  EqualityFilter,
  type Filter,
  Attribute as LdapAttribute,
  NoSuchObjectError,
} from 'ldapts';
import { AccountStoreError } from './account-store-error.js';

export interface LdapAttributeNames {
  readonly access: string;
  readonly secret: string;
  readonly role: string;
  readonly userId: string;
  readonly groupId: string;
  /** Optional in versitygw too: without it projectID is 0. */
  readonly projectId?: string;
}

export interface LdapStoreOptions {
  /** ldap:// or ldaps:// (TLS from the first byte). */
  readonly url: string;
  readonly bindDn: string;
  readonly bindPassword: string;
  readonly queryBase: string;
  readonly objectClasses: readonly string[];
  readonly attributes: LdapAttributeNames;
  /** ldaps: accept any server certificate (versitygw --iam-ldap-tls-skip-verify). */
  readonly tlsSkipVerify?: boolean;
  /** Per operation; default 10 s. */
  readonly timeoutMs?: number;
}

/** An LDAP attribute or object class name (RFC 4512 descr): checked before it reaches a filter. */
export const LDAP_NAME = /^[A-Za-z][A-Za-z0-9-]*$/;

function first(entry: Entry, name: string): string | undefined {
  // Attribute names are case-insensitive; ldapts keys entries by the name the server sent.
  const key = Object.keys(entry).find((k) => k.toLowerCase() === name.toLowerCase());
  const v = key === undefined ? undefined : entry[key];
  const one = Array.isArray(v) ? v[0] : v;
  if (one === undefined) return undefined;
  return Buffer.isBuffer(one) ? one.toString('utf8') : String(one);
}

function integer(entry: Entry, name: string | undefined): number {
  if (name === undefined) return 0;
  const text = first(entry, name);
  if (text === undefined || text === '') return 0;
  const n = Number(text);
  if (!Number.isInteger(n))
    throw new AccountStoreError(
      'VGW_ERR_IAM_STORE_BAD_ENTRY',
      `LDAP entry ${entry.dn}: ${name} "${text}" is not an integer`,
    );
  return n;
}

export class LdapAccountStore implements AccountStore {
  private readonly names: LdapAttributeNames;

  private constructor(
    private readonly client: Client,
    private readonly opts: LdapStoreOptions,
  ) {
    this.names = opts.attributes;
  }

  /** Connects and binds; a wrong URL, DN or password stops here with the server's answer. */
  static async open(opts: LdapStoreOptions): Promise<LdapAccountStore> {
    for (const name of [...opts.objectClasses, ...Object.values(opts.attributes)])
      if (!LDAP_NAME.test(name))
        throw new AccountStoreError(
          'VGW_ERR_IAM_STORE_BAD_ENTRY',
          `not an LDAP attribute or class name: "${name}"`,
        );
    const timeout = opts.timeoutMs ?? 10_000;
    const client = new Client({
      url: opts.url,
      timeout,
      connectTimeout: timeout,
      // The directory may close idle connections; the next operation reconnects and binds again.
      autoRebind: true,
      ...(opts.url.toLowerCase().startsWith('ldaps:')
        ? { tlsOptions: { rejectUnauthorized: opts.tlsSkipVerify !== true } }
        : {}),
    });
    try {
      await client.bind(opts.bindDn, opts.bindPassword);
    } catch (err) {
      await client.unbind().catch(() => {});
      throw new AccountStoreError(
        'VGW_ERR_IAM_STORE_UNREADABLE',
        `cannot bind to ${opts.url} as ${opts.bindDn}: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
    return new LdapAccountStore(client, opts);
  }

  get description(): string {
    return `${this.opts.url} (${this.opts.queryBase})`;
  }

  async get(access: string): Promise<IamAccount | undefined> {
    const entry = await this.find(access);
    return entry ? this.toAccount(entry) : undefined;
  }

  async list(): Promise<IamAccount[]> {
    const { searchEntries } = await this.client.search(this.opts.queryBase, {
      scope: 'sub',
      filter: this.classFilter([]),
      attributes: this.attributeList(),
      paged: { pageSize: 500 },
    });
    return searchEntries
      .map((e) => this.toAccount(e))
      .filter((a) => a.access !== '')
      .sort((x, y) => (x.access < y.access ? -1 : x.access > y.access ? 1 : 0));
  }

  async create(a: IamAccount): Promise<void> {
    const n = this.names;
    const dn = `${new DN({ [n.access]: a.access }).toString()},${this.opts.queryBase}`;
    const attributes: Record<string, string | string[]> = {
      objectClass: [...this.opts.objectClasses],
      [n.access]: a.access,
      [n.secret]: a.secret,
      [n.role]: a.role,
      [n.userId]: String(a.userID),
      [n.groupId]: String(a.groupID),
      ...(n.projectId === undefined ? {} : { [n.projectId]: String(a.projectID) }),
    };
    // The RDN already names the access key; a second account with it elsewhere under the base
    // would make lookups ambiguous, so that counts as existing too.
    if (await this.find(a.access)) throw new S3Error('XAdminUserExists');
    try {
      await this.client.add(dn, attributes);
    } catch (err) {
      if (err instanceof AlreadyExistsError) throw new S3Error('XAdminUserExists');
      throw err;
    }
  }

  async update(access: string, update: IamAccountUpdate): Promise<void> {
    const entry = await this.find(access);
    if (!entry) throw new S3Error('XAdminUserNotFound');
    const next = applyUpdate(this.toAccount(entry), update);
    const n = this.names;
    const values: [string | undefined, string | undefined][] = [
      [n.secret, update.secret === undefined ? undefined : next.secret],
      [n.role, update.role === undefined ? undefined : next.role],
      [n.userId, update.userID === undefined ? undefined : String(next.userID)],
      [n.groupId, update.groupID === undefined ? undefined : String(next.groupID)],
      [n.projectId, update.projectID === undefined ? undefined : String(next.projectID)],
    ];
    const changes = values
      .filter((v): v is [string, string] => v[0] !== undefined && v[1] !== undefined)
      .map(
        ([type, value]) =>
          new Change({ operation: 'replace', modification: new LdapAttribute({ type, values: [value] }) }),
      );
    if (changes.length === 0) return;
    try {
      await this.client.modify(entry.dn, changes);
    } catch (err) {
      if (err instanceof NoSuchObjectError) throw new S3Error('XAdminUserNotFound');
      throw err;
    }
  }

  async delete(access: string): Promise<void> {
    const entry = await this.find(access);
    if (!entry) throw new S3Error('XAdminUserNotFound');
    try {
      await this.client.del(entry.dn);
    } catch (err) {
      if (err instanceof NoSuchObjectError) throw new S3Error('XAdminUserNotFound');
      throw err;
    }
  }

  async close(): Promise<void> {
    await this.client.unbind().catch(() => {});
  }

  private async find(access: string): Promise<Entry | undefined> {
    if (access === '') return undefined;
    const { searchEntries } = await this.client.search(this.opts.queryBase, {
      scope: 'sub',
      filter: this.classFilter([new EqualityFilter({ attribute: this.names.access, value: access })]),
      attributes: this.attributeList(),
    });
    // Equality matching may ignore case (caseIgnoreMatch on uid/cn); access keys do not.
    return searchEntries.find((e) => first(e, this.names.access) === access);
  }

  private classFilter(extra: Filter[]): Filter {
    return new AndFilter({
      filters: [
        ...this.opts.objectClasses.map((c) => new EqualityFilter({ attribute: 'objectClass', value: c })),
        ...extra,
      ],
    });
  }

  private attributeList(): string[] {
    const n = this.names;
    return [n.access, n.secret, n.role, n.userId, n.groupId, ...(n.projectId ? [n.projectId] : [])];
  }

  private toAccount(e: Entry): IamAccount {
    const n = this.names;
    const role = first(e, n.role);
    return {
      access: first(e, n.access) ?? '',
      secret: first(e, n.secret) ?? '',
      role: isRole(role) ? role : 'user',
      userID: integer(e, n.userId),
      groupID: integer(e, n.groupId),
      projectID: integer(e, n.projectId),
    };
  }
}
