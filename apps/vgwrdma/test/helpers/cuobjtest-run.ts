// The built cuobjtest bin with the given arguments only (its environment is PATH and nothing
// else, so no AWS_* variable of the test run reaches it): the exit code and both outputs, a
// failing run included; and the verified RDMA round trip the backend suites run with it.
import { execFile } from 'node:child_process';
import { type Credentials, distFile } from '@vgwrdma/test-kit';
import { expect } from 'vitest';

const CUOBJTEST = distFile('cuobjtest', 'main.js');

export interface CuobjtestRun {
  code: number;
  stdout: string;
  stderr: string;
}

export function runCuobjtest(args: readonly string[]): Promise<CuobjtestRun> {
  return new Promise((done) => {
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin' };
    execFile(
      process.execPath,
      [CUOBJTEST, ...args],
      { env, maxBuffer: 1 << 24, encoding: 'utf8' },
      (error, stdout, stderr) => {
        done({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1, stdout, stderr });
      },
    );
  });
}

/**
 * `cuobjtest` moving `n` objects of `size` (its -size spelling, `bytes` long) to s3://bucket/key
 * and back by RDMA: it must exit 0 and report an RDMA run of that size, verified.
 */
export async function expectRdmaRoundTrip(
  endpoint: string,
  credentials: Credentials,
  object: { bucket: string; key: string },
  size: string,
  bytes: number,
  n = 2,
): Promise<void> {
  const run = await runCuobjtest([
    '-endpoint',
    endpoint,
    '-access',
    credentials.access,
    '-secret',
    credentials.secret,
    '-bucket',
    object.bucket,
    '-key',
    object.key,
    '-size',
    size,
    '-n',
    String(n),
    '--json',
  ]);
  expect(run.code, run.stderr).toBe(0);
  expect(JSON.parse(run.stdout)).toMatchObject({
    mode: 'rdma',
    sizeBytes: bytes,
    iterations: n,
    verified: true,
  });
}
