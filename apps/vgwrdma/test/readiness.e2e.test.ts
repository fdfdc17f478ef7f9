// Liveness (--health) and readiness (--ready) on the built gateway, as Kubernetes probes use them:
// readiness answers 503 with the failing check named while the posix root is gone or the s3
// backend's upstream is down, and 200 again once it is back; liveness answers 200 throughout.
// With --rdma-ip, readiness reports the RDMA plugin's check too.
import { mkdir, rename } from 'node:fs/promises';
import { CreateBucketCommand } from '@aws-sdk/client-s3';
import {
  type AppProcess,
  type GatewayProcess,
  type HttpText,
  httpText,
  killAllChildren,
  ROOT_CREDENTIALS,
  removeDir,
  s3Client,
  settle,
  startGateway,
} from '@vgwrdma/test-kit';
import { afterAll, describe, expect, it } from 'vitest';
import { openHeldRequest } from './helpers/held-request.js';
import { startProxyGateway } from './helpers/proxy-process.js';

const running: AppProcess[] = [];
const roots: string[] = [];

afterAll(async () => {
  for (const p of running) await p.stop('SIGKILL');
  killAllChildren();
  for (const root of roots) await removeDir(root);
});

type Probe = HttpText;

function probe(url: string, path: string, method = 'GET'): Promise<Probe> {
  return httpText(`${url}${path}`, { method });
}

interface Report {
  ready: boolean;
  checks: Record<string, { ok: boolean; detail?: string }>;
}

async function ready(url: string): Promise<{ status: number; report: Report }> {
  const { status, body } = await probe(url, '/ready');
  return { status, report: JSON.parse(body) as Report };
}

async function posixGateway(globalArgs: readonly string[] = []): Promise<GatewayProcess> {
  const gw = await startGateway({ globalArgs: ['--health', '/health', '--ready', '/ready', ...globalArgs] });
  running.push(gw);
  roots.push(gw.root);
  return gw;
}

describe('--ready (readiness) beside --health (liveness)', () => {
  it('posix: not ready while the root is gone, ready again once it is back; alive throughout', async () => {
    const gw = await posixGateway();
    expect(gw.stdout()).toMatch(/^\s*ready:\s+\/ready$/m);
    expect(await ready(gw.url)).toEqual({
      status: 200,
      report: { ready: true, checks: { backend: { ok: true } } },
    });

    const moved = `${gw.root}.away`;
    await rename(gw.root, moved);
    roots.push(moved);
    const down = await ready(gw.url);
    expect(down.status).toBe(503);
    expect(down.report.ready).toBe(false);
    expect(down.report.checks.backend).toMatchObject({
      ok: false,
      detail: expect.stringContaining('ENOENT'),
    });
    expect((await probe(gw.url, '/health')).status).toBe(200);
    // HEAD answers the same status without a body (probes that only look at the status line).
    expect(await probe(gw.url, '/ready', 'HEAD')).toEqual({ status: 503, body: '' });

    await rename(moved, gw.root);
    expect((await ready(gw.url)).status).toBe(200);
  });

  it('answers before authentication and outside --max-requests', async () => {
    const gw = await posixGateway(['--max-requests', '1']);
    const client = s3Client(gw.url, ROOT_CREDENTIALS);
    await client.send(new CreateBucketCommand({ Bucket: 'held' }));
    client.destroy();
    // A PUT that never finishes its body holds the one request slot ...
    const held = await openHeldRequest(gw.url, {
      method: 'PUT',
      path: '/held/slow',
      contentLength: 10,
      credentials: ROOT_CREDENTIALS,
    });
    try {
      held.send('a');
      // Settled: the gateway has taken the held PUT (until then a listing is answered normally).
      const refused = await settle(
        () => probe(gw.url, '/held'),
        (r) => r.status === 503,
        { what: 'a request beyond --max-requests 1 while a PUT holds the slot' },
      );
      expect(refused.status).toBe(503);
      // ... and the unsigned probe is still answered by readiness, not SlowDown or AccessDenied.
      expect((await ready(gw.url)).status).toBe(200);
    } finally {
      held.destroy();
    }
    // Without --ready the path is an ordinary (here unsigned) S3 request for the bucket "ready".
    const plain = await startGateway();
    running.push(plain);
    roots.push(plain.root);
    const asS3 = await probe(plain.url, '/ready');
    expect(asS3.status).toBe(404);
    expect(asS3.body).toContain('<Code>NoSuchBucket</Code>');
  });

  it('s3 backend: not ready while the upstream is down; alive throughout', async () => {
    const upstream = await posixGateway();
    const proxyKeys = { access: 'proxy-access', secret: 'proxy-secret-key' };
    const proxy = await startProxyGateway(
      proxyKeys,
      ['--endpoint', upstream.url, '--access', ROOT_CREDENTIALS.access, '--secret', ROOT_CREDENTIALS.secret],
      ['--health', '/health', '--ready', '/ready'],
    );
    running.push(proxy);
    expect((await ready(proxy.url)).status).toBe(200);

    await upstream.stop('SIGKILL');
    const down = await ready(proxy.url);
    expect(down.status).toBe(503);
    expect(down.report.checks.backend?.ok).toBe(false);
    expect(down.report.checks.backend?.detail).toMatch(/ECONNREFUSED|no answer within/);
    expect((await probe(proxy.url, '/health')).status).toBe(200);
  });

  it('--rdma-ip: reports the RDMA plugin (pool allocated, server up) next to the backend', async () => {
    const gw = await posixGateway(['--rdma-ip', '127.0.0.1', '--pool-buf-count', '2']);
    const r = await ready(gw.url);
    expect(r.status).toBe(200);
    expect(r.report.checks.backend).toEqual({ ok: true });
    expect(r.report.checks.rdma).toMatchObject({
      ok: true,
      detail: expect.stringMatching(/^2 x 67108864-byte buffers, \d+ channels$/),
    });
  });

  it('a root that comes back empty is still ready (no buckets is not an error)', async () => {
    const gw = await posixGateway();
    await removeDir(gw.root);
    expect((await ready(gw.url)).status).toBe(503);
    await mkdir(gw.root);
    expect((await ready(gw.url)).status).toBe(200);
  });
});
