// cuobjtest's built bin (dist/main.js) against the file's gateway process (test-kit's
// EmbeddedGateway: posix + CuServer + cu-middleware over softnic), started before the file's tests
// and stopped after them. `cuobjtest(...args)` runs the bin with that gateway's endpoint and
// account (the secret in the environment, as a user would pass it) and gives back the exit code
// and both outputs, a failing run included.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { EMBEDDED_CREDENTIALS, EmbeddedGateway, useFileResource } from '@vgwrdma/test-kit';

export const BIN = fileURLToPath(new URL('../dist/main.js', import.meta.url));
const MiB = 2 ** 20;

export interface BinRun {
  code: number;
  stdout: string;
  stderr: string;
}

export interface BinAgainstGateway {
  /** The file's gateway (valid once beforeAll ran). */
  gw(): EmbeddedGateway;
  /** Runs the bin against it; `env` is added to the test process's environment. */
  cuobjtest(args: readonly string[], env?: Readonly<Record<string, string>>): Promise<BinRun>;
}

/** Registers beforeAll/afterAll for a gateway process and returns the bin runner for it. */
export function binAgainstGateway(): BinAgainstGateway {
  const current = useFileResource(
    'the gateway',
    () => EmbeddedGateway.start(),
    (gw) => gw.stop(),
  );
  return {
    gw: current,
    async cuobjtest(args, env = {}) {
      const all = {
        ...process.env,
        AWS_SECRET_ACCESS_KEY: EMBEDDED_CREDENTIALS.secretAccessKey,
        CI: '1',
        ...env,
      };
      try {
        const { stdout, stderr } = await promisify(execFile)(
          process.execPath,
          [BIN, '-endpoint', current().endpoint, '-access', EMBEDDED_CREDENTIALS.accessKeyId, ...args],
          { env: all, maxBuffer: 16 * MiB },
        );
        return { code: 0, stdout, stderr };
      } catch (e) {
        const x = e as BinRun;
        return { code: x.code, stdout: x.stdout, stderr: x.stderr };
      }
    },
  };
}
