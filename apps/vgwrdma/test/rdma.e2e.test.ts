// The app with --rdma-ip over softnic: the posix backend wrapped in CuServer behind cu-middleware.
// Driven by the built cuobjtest CLI (cuobjclient sessions), which verifies every PUT and GET by
// RDMA byte for byte and compares them with plain HTTP bodies against the same gateway.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import {
  type GatewayProcess,
  killAllChildren,
  ROOT_CREDENTIALS,
  removeDir,
  startGateway,
} from '@vgwrdma/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const CUOBJTEST = fileURLToPath(new URL('../../../packages/cuobjtest/dist/main.js', import.meta.url));
if (!existsSync(CUOBJTEST)) console.warn(`rdma e2e skipped: ${CUOBJTEST} is not built`);

interface RunResult {
  mode: string;
  sizeBytes: number;
  verified: boolean;
  put?: { iterations: unknown[] };
  get?: { iterations: unknown[] };
}

describe.skipIf(!existsSync(CUOBJTEST))('vgwrdma --rdma-ip 127.0.0.1 (softnic)', () => {
  let gw: GatewayProcess;

  beforeAll(async () => {
    gw = await startGateway({ globalArgs: ['--rdma-ip', '127.0.0.1', '--pool-buf-count', '2'] });
  });
  afterAll(async () => {
    await gw?.stop();
    killAllChildren();
    if (gw) await removeDir(gw.root);
  });

  it('announces RDMA in the banner', () => {
    expect(gw.stdout()).toMatch(/^\s*rdma:\s+softnic on 127\.0\.0\.1, 2 x 67108864 byte buffers$/m);
  });

  it('moves verified PUTs and GETs by RDMA, and plain bodies still work', async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [
        CUOBJTEST,
        '-endpoint',
        gw.url,
        '-access',
        ROOT_CREDENTIALS.access,
        '-secret',
        ROOT_CREDENTIALS.secret,
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
    expect(await gw.stop()).toEqual({ code: 0, signal: null });
  });
});
