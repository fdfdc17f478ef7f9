// CuServer over posix passes the shared backend conformance kit: without a descriptor every
// operation (PutObject, GetObject and UploadPart included) is delegated unchanged.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runBackendConformance } from '@vgwrdma/backend-contract/conformance';
import { PosixBackend } from '@vgwrdma/backend-posix';
import { BufferPool } from '@vgwrdma/bufferpool';
import { RdmaServer } from '@vgwrdma/rdma-ffi';
import { CuServer } from '../src/index.js';

runBackendConformance('cuserver(posix)', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'cu-conformance-'));
  const posix = await PosixBackend.open({ root: join(dir, 'root') });
  const server = new RdmaServer({ channels: 2 });
  const pool = BufferPool.create(server, { count: 1, size: 1 << 20 });
  const backend = new CuServer({ server, pool }, posix);
  return {
    backend,
    cleanup: async () => {
      await backend.shutdown();
      await rm(dir, { recursive: true, force: true });
    },
  };
});
