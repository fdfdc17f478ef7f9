// The real posix backend in a fresh temp dir, for running the HTTP suites over it too, and a
// gateway over one with a bucket ready.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateBucketCommand } from '@aws-sdk/client-s3';
import type { Backend } from '@vgwrdma/backend-contract';
import { PosixBackend } from '@vgwrdma/backend-posix';
import { startGateway, type TestGateway } from './harness.js';

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

/** A gateway over a fresh posix backend with `bucket` created; close() also removes the tree. */
export async function posixGateway(bucket: string): Promise<TestGateway> {
  const posix = await posixBackend();
  let gw: TestGateway | undefined;
  try {
    gw = await startGateway(posix.backend);
    await gw.client.send(new CreateBucketCommand({ Bucket: bucket }));
  } catch (err) {
    await gw?.close();
    await posix.cleanup();
    throw err;
  }
  const started = gw;
  return {
    ...started,
    close: async () => {
      await started.close();
      await posix.cleanup();
    },
  };
}
