// CachedAccountStore over a real users.json store on disk, with a clock the test moves: an account
// changed or deleted behind the cache's back (another gateway) keeps working only until its TTL
// runs out; changes made through the cache show at once; misses are never cached; prune sweeps.
import { iamAccount, makeTempDir, removeDir } from '@vgwrdma/test-kit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CachedAccountStore } from '../../src/iam/account-cache.js';
import { UsersFileStore } from '../../src/iam/users-file-store.js';

describe('CachedAccountStore', () => {
  let dir: string;
  let backing: UsersFileStore;
  /** Another gateway writing the same store. */
  let elsewhere: UsersFileStore;
  let now: number;
  let cache: CachedAccountStore;

  beforeEach(async () => {
    dir = await makeTempDir('gw-iam-cache-');
    backing = await UsersFileStore.open(dir);
    elsewhere = await UsersFileStore.open(dir);
    now = 1_000_000;
    cache = new CachedAccountStore(backing, { ttlMs: 2000, pruneMs: 60_000, now: () => now });
  });
  afterEach(async () => {
    await cache.close();
    await removeDir(dir);
  });

  it('serves a deleted account until its TTL runs out, then not at all', async () => {
    await elsewhere.create(iamAccount('alice'));
    expect((await cache.get('alice'))?.secret).toBe('alice-secret');
    await elsewhere.delete('alice');
    now += 1999;
    expect((await cache.get('alice'))?.secret).toBe('alice-secret');
    now += 1;
    expect(await cache.get('alice')).toBeUndefined();
  });

  it('serves the old secret of a changed account until its TTL runs out', async () => {
    await elsewhere.create(iamAccount('bob', 'old'));
    expect((await cache.get('bob'))?.secret).toBe('old');
    await elsewhere.update('bob', { secret: 'new' });
    now += 1000;
    expect((await cache.get('bob'))?.secret).toBe('old');
    now += 1000;
    expect((await cache.get('bob'))?.secret).toBe('new');
  });

  it('does not cache misses: an account created elsewhere works at once', async () => {
    expect(await cache.get('carol')).toBeUndefined();
    await elsewhere.create(iamAccount('carol'));
    expect((await cache.get('carol'))?.access).toBe('carol');
  });

  it('applies its own updates and deletes at once', async () => {
    await cache.create(iamAccount('dave', 'one'));
    expect((await cache.get('dave'))?.secret).toBe('one');
    await cache.update('dave', { secret: 'two', role: 'admin' });
    expect(await cache.get('dave')).toMatchObject({ secret: 'two', role: 'admin' });
    expect((await elsewhere.get('dave'))?.secret).toBe('two');
    await cache.delete('dave');
    expect(await cache.get('dave')).toBeUndefined();
    expect(await elsewhere.get('dave')).toBeUndefined();
  });

  it('prunes expired entries', async () => {
    await elsewhere.create(iamAccount('erin'));
    await elsewhere.create(iamAccount('frank'));
    await cache.get('erin');
    now += 1500;
    await cache.get('frank');
    expect(cache.size).toBe(2);
    now += 600;
    cache.prune();
    expect(cache.size).toBe(1);
    now += 2000;
    cache.prune();
    expect(cache.size).toBe(0);
  });

  it('lists from the store itself', async () => {
    await elsewhere.create(iamAccount('gina'));
    await cache.list();
    await elsewhere.create(iamAccount('hank'));
    expect((await cache.list()).map((a) => a.access).sort()).toEqual(['gina', 'hank']);
  });
});
