// globalSetup of the vgwrdma project: a folder for the run's one release pack (shared-pack.ts),
// named to the worker processes by an environment variable. Nothing is packed here — a run
// without install tests pays nothing; the teardown removes whatever was packed.
import { makeTempDir, removeDir } from '@vgwrdma/test-kit';
import { PACK_ENV } from './shared-pack.js';

export default async function setup(): Promise<() => Promise<void>> {
  const dir = await makeTempDir('vgwrdma-release-pack-');
  process.env[PACK_ENV] = dir;
  return async () => {
    delete process.env[PACK_ENV];
    await removeDir(dir);
  };
}
