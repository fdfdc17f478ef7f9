// The real posix backend in a fresh temp dir, for running the HTTP suites over it too, and a
// gateway over one with a bucket ready.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PosixBackend } from '@vgwrdma/backend-posix';
import { bucketGateway, type MadeBackend } from './bucket-gateway.js';
import type { TestGateway } from './harness.js';

export async function posixBackend(): Promise<MadeBackend> {
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

/** A gateway over a fresh posix backend with `bucket` created; close() also removes the tree. */
export async function posixGateway(bucket: string): Promise<TestGateway> {
  return bucketGateway(await posixBackend(), bucket);
}
