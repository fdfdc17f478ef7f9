// The ready path (readyPath) and checkReadiness(): 200 with the checks when the backend answers
// its probe and every plugin reports ready; 503 naming the failing check otherwise (a backend that
// throws, one that never answers, a plugin not ready); HEAD without a body; the health path
// (liveness) unaffected by any of it; the exact check HAProxy's `option httpchk` sends (HTTP/1.0,
// no Host header) answered like any other request.
import { connect } from 'node:net';
import type { ListBucketsInput, ListBucketsOutput, RequestContext } from '@vgwrdma/backend-contract';
import { MemoryBackend } from '@vgwrdma/test-kit/memory';
import { afterEach, expect, it } from 'vitest';
import { checkReadiness } from '../src/health/readiness.js';
import type { GatewayPlugin } from '../src/plugins/index.js';
import { startGateway, type TestGateway } from './support/harness.js';
import { raw } from './support/raw-http.js';

/** A backend whose listBuckets fails or hangs on demand, and records the probe's context. */
class FlakyBackend extends MemoryBackend {
  mode: 'ok' | 'fail' | 'hang' = 'ok';
  seen: RequestContext[] = [];
  override listBuckets(ctx: RequestContext, input: ListBucketsInput): Promise<ListBucketsOutput> {
    this.seen.push(ctx);
    if (this.mode === 'fail') return Promise.reject(Object.assign(new Error('disk gone'), { code: 'EIO' }));
    if (this.mode === 'hang') return new Promise(() => {});
    return super.listBuckets(ctx, input);
  }
}

/** Writes `request` as is on a fresh connection; the whole answer once the server closes it. */
function wire(url: string, request: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.end(request));
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (d: string) => {
      text += d;
    });
    socket.once('error', reject);
    socket.once('end', () => resolve(text));
  });
}

const started: TestGateway[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((g) => g.close()));
});

it('answers 200 with the checks while the backend answers, 503 naming it when it fails', async () => {
  const backend = new FlakyBackend();
  const gw = await startGateway(backend, { readyPath: '/ready', healthPath: '/health' });
  started.push(gw);
  const up = await raw(gw.url, { path: '/ready' });
  expect(up.status).toBe(200);
  expect(up.headers['content-type']).toBe('application/json');
  expect(JSON.parse(up.body)).toEqual({ ready: true, checks: { backend: { ok: true } } });
  expect(backend.seen[0]?.account.role).toBe('admin');

  backend.mode = 'fail';
  const down = await raw(gw.url, { path: '/ready' });
  expect(down.status).toBe(503);
  expect(JSON.parse(down.body)).toEqual({
    ready: false,
    checks: { backend: { ok: false, detail: 'EIO: disk gone' } },
  });
  expect(await raw(gw.url, { method: 'HEAD', path: '/ready' })).toMatchObject({ status: 503, body: '' });
  expect((await raw(gw.url, { path: '/health' })).status).toBe(200);
});

it('counts a backend that does not answer in time as not ready', async () => {
  const backend = new FlakyBackend();
  backend.mode = 'hang';
  const report = await checkReadiness(backend, [], 50);
  expect(report).toEqual({
    ready: false,
    checks: { backend: { ok: false, detail: 'no answer within 50 ms' } },
  });
  expect(backend.seen[0]?.signal.aborted).toBe(true);
});

it('asks each plugin that reports readiness, and is ready only when all are', async () => {
  let rdmaOk = true;
  const plugins: GatewayPlugin[] = [
    { name: 'quiet' },
    { name: 'rdma', readiness: () => (rdmaOk ? { ok: true } : { ok: false, detail: 'buffer pool closed' }) },
    { name: 'broken', readiness: () => Promise.reject(new Error('cannot tell')) },
  ];
  const report = await checkReadiness(new MemoryBackend(), plugins);
  expect(report).toEqual({
    ready: false,
    checks: {
      backend: { ok: true },
      rdma: { ok: true },
      broken: { ok: false, detail: 'cannot tell' },
    },
  });
  rdmaOk = false;
  const gw = await startGateway(new MemoryBackend(), {
    readyPath: '/ready',
    plugins: [plugins[1] as GatewayPlugin],
  });
  started.push(gw);
  const res = await raw(gw.url, { path: '/ready' });
  expect(res.status).toBe(503);
  expect(JSON.parse(res.body).checks.rdma).toEqual({ ok: false, detail: 'buffer pool closed' });
});

it('answers an HTTP/1.0 check without a Host header (what HAProxy sends); HTTP/1.1 without one stays 400', async () => {
  const backend = new FlakyBackend();
  const gw = await startGateway(backend, { readyPath: '/ready', healthPath: '/health' });
  started.push(gw);
  const ready = await wire(gw.url, 'GET /ready HTTP/1.0\r\n\r\n');
  expect(ready).toMatch(/^HTTP\/1\.1 200 /);
  expect(ready.slice(ready.indexOf('\r\n\r\n') + 4)).toBe('{"ready":true,"checks":{"backend":{"ok":true}}}');
  backend.mode = 'fail';
  expect(await wire(gw.url, 'GET /ready HTTP/1.0\r\n\r\n')).toMatch(/^HTTP\/1\.1 503 /);
  expect(await wire(gw.url, 'GET /health HTTP/1.0\r\n\r\n')).toMatch(/^HTTP\/1\.1 200 /);
  // Past the unauthenticated paths such a request is an anonymous S3 request like any other.
  const anonymous = await wire(gw.url, 'GET / HTTP/1.0\r\n\r\n');
  expect(anonymous).toMatch(/^HTTP\/1\.1 403 /);
  expect(anonymous).toContain('<Code>AccessDenied</Code>');
  expect(await wire(gw.url, 'GET /ready HTTP/1.1\r\n\r\n')).toMatch(/^HTTP\/1\.1 400 /);
});
