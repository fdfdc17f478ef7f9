// What the install tests do with an install, once: start the installed `vgwrdma` (posix on a
// fresh root, RDMA by softnic on 127.0.0.1), run the installed `cuobjtest` against it (and check
// its report), and run
// one of fixtures/ in an app folder (copied there with the round trip it shares).
import { copyFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import type { NpmUser } from './npm-user.js';
import { type Served, serve } from './served.js';

const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));

/** The keys of the gateway's root user, as an S3 client's environment names them. */
export interface Keys {
  readonly AWS_ACCESS_KEY_ID: string;
  readonly AWS_SECRET_ACCESS_KEY: string;
}

/** What the round trip of fixtures/round-trip.cjs prints for 8 MiB up and down by RDMA. */
export const RDMA_ROUND_TRIP = { put: 'rdma', get: 'rdma', bytes: 8 << 20, equal: true } as const;

/** The installed `vgwrdma` (the user's global bin) serving `root`. */
export function serveInstalledVgwrdma(user: NpmUser, root: string, keys: Keys): Promise<Served> {
  const args = ['--rdma-ip', '127.0.0.1', '--pool-buf-size', '16MiB', '--pool-buf-count', '2'];
  return serve(user.bin('vgwrdma'), [...args, '--port', '127.0.0.1:0', '--quiet', 'posix', root], {
    cwd: user.home,
    env: {
      ...user.env,
      ROOT_ACCESS_KEY_ID: keys.AWS_ACCESS_KEY_ID,
      ROOT_SECRET_ACCESS_KEY: keys.AWS_SECRET_ACCESS_KEY,
    },
  });
}

/**
 * The installed `cuobjtest` against `served`: one 8 MiB PUT and GET, whose JSON report must say
 * RDMA and verified (the gateway's stderr shown when it does not).
 */
export async function expectInstalledCuobjtest(
  user: NpmUser,
  served: Served,
  bucket: string,
  keys: Keys,
): Promise<void> {
  const args = ['-endpoint', served.endpoint, '-bucket', bucket, '-size', '8MiB', '-n', '1', '--json'];
  const { stdout } = await user.command(user.bin('cuobjtest'), args, user.home, { ...keys });
  const report = JSON.parse(stdout) as { mode: string; sizeBytes: number; verified: boolean };
  expect(report, served.stderr()).toMatchObject({ mode: 'rdma', sizeBytes: 8 << 20, verified: true });
}

/** Copies fixtures/<fixture> into `app` as `script` (with round-trip.cjs) and runs it; its stdout. */
export async function runAppFixture(
  user: NpmUser,
  app: string,
  fixture: string,
  env: NodeJS.ProcessEnv,
  script = fixture,
): Promise<string> {
  await copyFile(join(FIXTURES, fixture), join(app, script));
  await copyFile(join(FIXTURES, 'round-trip.cjs'), join(app, 'round-trip.cjs'));
  return (await user.node(script, [], app, env)).stdout;
}
