// appWorkDir: the setting of the tests that run the built app's bin by themselves (several
// gateways per file, commands that exit, flags under test): the build is checked before the
// file's tests, they share one temp folder, and when the file ends every tracked child is killed
// and the folder removed.
import { afterAll, beforeAll } from 'vitest';
import { killAllChildren } from '../child-registry.js';
import { assertBuilt } from '../gateway-process.js';
import { makeTempDir, removeDir } from '../temp-dir.js';

/** Registers the file's beforeAll/afterAll; the returned function gives the folder (in tests). */
export function appWorkDir(prefix: string): () => string {
  let dir: string | undefined;
  beforeAll(async () => {
    assertBuilt();
    dir = await makeTempDir(prefix);
  });
  afterAll(async () => {
    killAllChildren();
    if (dir !== undefined) await removeDir(dir);
  });
  return () => {
    if (dir === undefined) throw new Error('appWorkDir: the folder exists once beforeAll ran');
    return dir;
  };
}
