// cuobjtest (the built CLI) against the app started with --rdma-ip 127.0.0.1 on a posix root whose
// metadata lives in a --sidecar tree (CuServer + cu-middleware over softnic): --compare, JSON checked.

import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { type GatewayProcess, makeTempDir, removeDir, startGateway } from '@vgwrdma/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareSummary, cuobjtestCompare } from './helpers/cuobjtest.js';

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
    const results = await cuobjtestCompare(endpoint, { access: ACCESS, secret: SECRET });
    expect(compareSummary(results)).toEqual([
      ['rdma', 2 ** 21, true, 2, 2],
      ['std-s3', 2 ** 21, true, 2, 2],
    ]);
    expect(results[0]?.vsStdS3?.get?.pairs).toHaveLength(2);
  });
});
