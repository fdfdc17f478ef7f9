// gateway-child.mjs through its launcher: a real gateway (posix, with and without the RDMA
// plugin) that answers S3 requests and stops on SIGTERM; bad options exit before listening,
// naming the field. Needs the built dist/ of backend-posix, cu-backend and gateway, and the shims.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type GatewayChildOptions, startGatewayChild } from '../src/gateway-child-process.js';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'test-kit-gw-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const options = (extra: Partial<GatewayChildOptions> = {}): GatewayChildOptions => ({
  access: 'kit-access',
  secret: 'kit-secret',
  backend: { kind: 'posix', root },
  ...extra,
});

describe('startGatewayChild', () => {
  const cases: [string, NonNullable<GatewayChildOptions['rdma']>][] = [
    ['with the RDMA plugin', { channels: 2, pool: { count: 1, size: 1 << 20 } }],
    ['without RDMA', false],
  ];
  it.each(cases)('%s: serves S3 on loopback until stop()', async (_name, rdma) => {
    const gw = await startGatewayChild(options({ rdma }));
    try {
      expect(gw.endpoint).toBe(`http://127.0.0.1:${gw.port}`);
      // An unsigned ListBuckets: refused with S3's error document.
      const res = await fetch(`${gw.endpoint}/`);
      expect(res.status).toBe(403);
      expect(await res.text()).toContain('<Code>AccessDenied</Code>');
    } finally {
      await gw.stop();
    }
    await expect(fetch(`${gw.endpoint}/`)).rejects.toThrow();
    await gw.stop();
  });

  it('bad options: exits 2 before listening, naming the field', async () => {
    const bad = options({ rdma: { pool: { count: 0, size: 1 << 20 } } });
    await expect(startGatewayChild(bad)).rejects.toThrow(
      /exited with 2: gateway-child: bad options: rdma\.pool\.count: /,
    );
    const typo = { ...options(), backend: { kind: 'posix', rot: root } } as unknown as GatewayChildOptions;
    await expect(startGatewayChild(typo)).rejects.toThrow(/backend\.root: /);
  });
});
