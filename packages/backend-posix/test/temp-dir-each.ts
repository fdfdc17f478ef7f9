// A fresh temporary directory for every test of a file or describe block, removed after the test.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';

/** Before each test: a new directory named `prefix`…, handed to `set` (which may fill it); after: removed. */
export function tempDirEach(prefix: string, set: (dir: string) => void | Promise<void>): void {
  let dir: string | undefined;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), prefix));
    await set(dir);
  });
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
    dir = undefined;
  });
}
