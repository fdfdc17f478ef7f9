// versitygw's IAM cache (--iam-cache-ttl, --iam-cache-prune, --iam-cache-disable) in front of a
// remote AccountStore: a looked-up account is served from memory for `ttlMs`, so a busy gateway
// asks LDAP or the S3 bucket once per key per TTL instead of once per request. Changes made through
// this gateway update its entry at once; a change made elsewhere (another gateway, an LDAP admin)
// is seen here at the latest `ttlMs` later — the bound an operator trades against load. Misses are
// not cached (a new account works at once). Expired entries are swept every `pruneMs`.
import { type AccountStore, applyUpdate, type IamAccountUpdate } from './account-store.js';
import type { IamAccount } from './users-file.js';

export interface AccountCacheOptions {
  ttlMs: number;
  pruneMs: number;
  /** Clock, for tests. */
  now?: () => number;
}

interface Entry {
  account: IamAccount;
  expires: number;
}

export class CachedAccountStore implements AccountStore {
  private readonly entries = new Map<string, Entry>();
  private readonly now: () => number;
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly inner: AccountStore,
    private readonly opts: AccountCacheOptions,
  ) {
    this.now = opts.now ?? Date.now;
    this.sweeper = setInterval(() => this.prune(), opts.pruneMs);
    this.sweeper.unref();
  }

  get description(): string {
    return this.inner.description;
  }

  /** Entries held now (expired ones included until the next sweep). */
  get size(): number {
    return this.entries.size;
  }

  async get(access: string): Promise<IamAccount | undefined> {
    const hit = this.entries.get(access);
    if (hit && hit.expires > this.now()) return hit.account;
    const account = await this.inner.get(access);
    if (account) this.remember(account);
    else this.entries.delete(access);
    return account;
  }

  list(): Promise<IamAccount[]> {
    return this.inner.list();
  }

  async create(account: IamAccount): Promise<void> {
    await this.inner.create(account);
    this.remember(account);
  }

  async update(access: string, update: IamAccountUpdate): Promise<void> {
    await this.inner.update(access, update);
    const hit = this.entries.get(access);
    if (hit) this.remember(applyUpdate(hit.account, update));
  }

  async delete(access: string): Promise<void> {
    try {
      await this.inner.delete(access);
    } finally {
      this.entries.delete(access);
    }
  }

  /** Drops expired entries (runs every pruneMs). */
  prune(): void {
    const now = this.now();
    for (const [k, e] of this.entries) if (e.expires <= now) this.entries.delete(k);
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    this.entries.clear();
    await this.inner.close?.();
  }

  private remember(account: IamAccount): void {
    this.entries.set(account.access, { account, expires: this.now() + this.opts.ttlMs });
  }
}
