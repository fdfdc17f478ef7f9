// A lock file next to users.json (`users.json.lock`, created with O_EXCL) so that gateways
// sharing an IAM directory apply their read-modify-write updates one at a time and none is
// lost. A lock older than STALE_MS is taken to belong to a writer that died and is removed.
import { open, rm, stat } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { usersPath } from './users-file.js';

const STALE_MS = 10_000;
const RETRY_MS = 20;
const GIVE_UP_MS = 15_000;

async function removeIfStale(lock: string): Promise<void> {
  try {
    const s = await stat(lock);
    if (Date.now() - s.mtimeMs > STALE_MS) await rm(lock, { force: true });
  } catch {
    // Gone already: the next attempt takes it.
  }
}

export async function withUsersLock<T>(dir: string, fn: () => Promise<T>): Promise<T> {
  const lock = `${usersPath(dir)}.lock`;
  const started = Date.now();
  for (;;) {
    try {
      const handle = await open(lock, 'wx', 0o600);
      await handle.close();
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      if (Date.now() - started > GIVE_UP_MS)
        throw new Error(`users.json is locked by another writer (${lock})`);
      await removeIfStale(lock);
      await sleep(RETRY_MS);
    }
  }
  try {
    return await fn();
  } finally {
    await rm(lock, { force: true });
  }
}
