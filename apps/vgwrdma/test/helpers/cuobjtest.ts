// The built cuobjtest CLI (cuobjclient sessions) run against a test gateway: `--compare` moves
// every object by RDMA and as a plain HTTP body, verifying each PUT and GET byte for byte, and
// prints its results as JSON.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { RunResult } from '@vgwrdma/cuobjtest';
import { type Credentials, distFile } from '@vgwrdma/test-kit';

const CUOBJTEST = distFile('cuobjtest', 'main.js');

/**
 * Runs `cuobjtest --compare --json` for `n` objects of `size`; resolves with its results. `env`
 * adds to the child's environment (NODE_EXTRA_CA_CERTS for an HTTPS gateway).
 */
export async function cuobjtestCompare(
  endpoint: string,
  credentials: Credentials,
  size = '2MiB',
  n = 2,
  env: Readonly<Record<string, string>> = {},
): Promise<RunResult[]> {
  const args = ['-endpoint', endpoint, '-access', credentials.access, '-secret', credentials.secret];
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [CUOBJTEST, ...args, '-size', size, '-n', String(n), '--compare', '--json'],
    { env: { ...process.env, CI: '1', ...env }, maxBuffer: 1 << 24 },
  );
  return JSON.parse(stdout) as RunResult[];
}

/** Per result: mode, size, verified, and how many PUT and GET iterations ran. */
export function compareSummary(results: readonly RunResult[]): unknown[][] {
  return results.map((r) => [
    r.mode,
    r.sizeBytes,
    r.verified,
    r.put?.iterations.length,
    r.get?.iterations.length,
  ]);
}
