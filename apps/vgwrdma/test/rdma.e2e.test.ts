// The app with --rdma-ip over softnic: the posix backend wrapped in CuServer behind cu-middleware.
// Driven by the built cuobjtest CLI (cuobjclient sessions), which verifies every PUT and GET by
// RDMA byte for byte and compares them with plain HTTP bodies against the same gateway.
import {
  type GatewayProcess,
  killAllChildren,
  ROOT_CREDENTIALS,
  removeDir,
  startGateway,
} from '@vgwrdma/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareSummary, cuobjtestCompare } from './helpers/cuobjtest.js';

describe('vgwrdma --rdma-ip 127.0.0.1 (softnic)', () => {
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
    const results = await cuobjtestCompare(gw.url, ROOT_CREDENTIALS);
    expect(compareSummary(results)).toEqual([
      ['rdma', 2 ** 21, true, 2, 2],
      ['std-s3', 2 ** 21, true, 2, 2],
    ]);
    expect(await gw.stop()).toEqual({ code: 0, signal: null });
  });
});
