// cuobjtest (the built CLI) against the real gateway application started with --rdma-ip 127.0.0.1
// (CuServer + cu-middleware over softnic): --compare in one run, JSON checked.

import { execFile } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { RunResult } from '@vgwrdma/cuobjtest';
import { distFile, type GatewayProcess, makeTempDir, removeDir, startGateway } from '@vgwrdma/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const BIN = distFile('cuobjtest', 'main.js');
const ACCESS = 'cuobjtest-app';
const SECRET = 'cuobjtest-app-secret';

describe('cuobjtest against apps/vgwrdma --rdma-ip 127.0.0.1', () => {
  let gateway: GatewayProcess | undefined;
  let root: string | undefined;
  let endpoint: string;

  beforeAll(async () => {
    root = await makeTempDir('cuobjtest-app-');
    await mkdir(join(root, 'data'));
    await mkdir(join(root, 'meta'));
    gateway = await startGateway({
      root: join(root, 'data'),
      credentials: { access: ACCESS, secret: SECRET },
      globalArgs: ['--rdma-ip', '127.0.0.1'],
      posixArgs: ['--sidecar', join(root, 'meta')],
    });
    endpoint = gateway.url;
  });
  afterAll(async () => {
    await gateway?.stop();
    if (root) await removeDir(root);
  });

  it('--compare: both modes verified in both directions, with ratios', async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [
        BIN,
        '-endpoint',
        endpoint,
        '-access',
        ACCESS,
        '-secret',
        SECRET,
        '-size',
        '2MiB',
        '-n',
        '2',
        '--compare',
        '--json',
      ],
      { env: { ...process.env, CI: '1' }, maxBuffer: 1 << 24 },
    );
    const results = JSON.parse(stdout) as RunResult[];
    expect(
      results.map((r) => [
        r.mode,
        r.sizeBytes,
        r.verified,
        r.put?.iterations.length,
        r.get?.iterations.length,
      ]),
    ).toEqual([
      ['rdma', 2 ** 21, true, 2, 2],
      ['std-s3', 2 ** 21, true, 2, 2],
    ]);
    expect(results[0]?.vsStdS3?.get?.pairs).toHaveLength(2);
  });
});
