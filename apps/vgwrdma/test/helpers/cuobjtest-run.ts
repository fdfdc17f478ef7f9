// The built cuobjtest bin with the given arguments only (its environment is PATH and nothing
// else, so no AWS_* variable of the test run reaches it): the exit code and both outputs, a
// failing run included.
import { execFile } from 'node:child_process';
import { distFile } from '@vgwrdma/test-kit';

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
