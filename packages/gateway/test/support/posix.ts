// The real posix backend in a fresh temp dir, for running the HTTP suites over it too.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PosixBackend } from '@vgwrdma/backend-posix';
import type { Backend } from '@vgwrdma/s3-backend';

export async function posixBackend(): Promise<{ backend: Backend; cleanup(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'gw-posix-'));
  const backend = await PosixBackend.open({ root: join(dir, 'root'), versioningDir: join(dir, 'versions') });
  return {
    backend,
    cleanup: async () => {
      await backend.shutdown();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
