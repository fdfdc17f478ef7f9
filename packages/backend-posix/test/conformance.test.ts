// The shared backend conformance kit, run against PosixBackend on a temp directory (xattrs).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runBackendConformance } from '@vgwrdma/backend-contract/conformance';
import { PosixBackend } from '../src/index.js';

runBackendConformance('posix', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'posix-conformance-'));
  const backend = await PosixBackend.open({ root: join(dir, 'root') });
  return { backend, cleanup: () => rm(dir, { recursive: true, force: true }) };
});
