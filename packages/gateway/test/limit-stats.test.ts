// Gateway.limitStats(): the counters behind --max-connections, --max-requests and the body idle
// timeout, driven by real connections and requests on loopback: open and dropped connections,
// in-flight requests, 503 SlowDown refusals and bodies cut for idleness.
import { connect, type Socket } from 'node:net';
import { CreateBucketCommand } from '@aws-sdk/client-s3';
import type { GetObjectInput, HeadObjectOutput, RequestContext } from '@vgwrdma/backend-contract';
import { IDLE_LIMIT_STATS } from '@vgwrdma/test-kit';
import { MemoryBackend } from '@vgwrdma/test-kit/memory';
import { afterEach, expect, it } from 'vitest';
import { ACCESS, SECRET, startGateway, type TestGateway } from './support/harness.js';
import { raw } from './support/raw-http.js';
import { signedRaw } from './support/signed-raw.js';

/** A backend whose HEAD waits until released. */
class GatedBackend extends MemoryBackend {
  release: () => void = () => {};
  override async headObject(ctx: RequestContext, input: GetObjectInput): Promise<HeadObjectOutput> {
    await new Promise<void>((r) => {
      this.release = r;
    });
    return super.headObject(ctx, input);
  }
}

const started: TestGateway[] = [];
const sockets: Socket[] = [];
afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  await Promise.all(started.splice(0).map((g) => g.close()));
});

async function start(...args: Parameters<typeof startGateway>): Promise<TestGateway> {
  const gw = await startGateway(...args);
  started.push(gw);
  return gw;
}

async function until(what: string, check: () => boolean): Promise<void> {
  for (let i = 0; i < 400 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
  if (!check()) throw new Error(`gave up waiting for ${what}`);
}

function open(gw: TestGateway): Socket {
  const socket = connect(gw.running.port, '127.0.0.1');
  socket.on('error', () => {});
  sockets.push(socket);
  return socket;
}

it('starts at zero', async () => {
  const gw = await start(new MemoryBackend());
  expect(gw.gateway.limitStats()).toEqual(IDLE_LIMIT_STATS);
});

it('counts open connections until they close, and those dropped over maxConnections', async () => {
  const gw = await start(new MemoryBackend(), { maxConnections: 2 });
  const a = open(gw);
  open(gw);
  await until('two connections', () => gw.gateway.limitStats().connections === 2);
  open(gw);
  await until('a dropped connection', () => gw.gateway.limitStats().droppedConnections === 1);
  expect(gw.gateway.limitStats().connections).toBe(2);
  a.destroy();
  await until('one connection', () => gw.gateway.limitStats().connections === 1);
});

it('counts in-flight requests and SlowDown refusals', async () => {
  const backend = new GatedBackend();
  const gw = await start(backend, { maxRequests: 1 });
  await gw.client.send(new CreateBucketCommand({ Bucket: 'limits' }));
  const held = signedRaw(gw.url, ACCESS, SECRET, { method: 'HEAD', path: '/limits/k' });
  await until('the held request', () => gw.gateway.limitStats().inFlight === 1);
  const refused = await signedRaw(gw.url, ACCESS, SECRET, { method: 'GET', path: '/limits' });
  expect(refused.status).toBe(503);
  expect(gw.gateway.limitStats()).toMatchObject({ inFlight: 1, rejectedSlowDown: 1 });
  backend.release();
  expect((await held).status).toBe(404);
  await until('no request in flight', () => gw.gateway.limitStats().inFlight === 0);
});

it('counts in-flight requests without a maxRequests cap, and refuses none', async () => {
  const backend = new GatedBackend();
  const gw = await start(backend);
  await gw.client.send(new CreateBucketCommand({ Bucket: 'limits' }));
  const held = signedRaw(gw.url, ACCESS, SECRET, { method: 'HEAD', path: '/limits/k' });
  await until('the held request', () => gw.gateway.limitStats().inFlight === 1);
  expect((await raw(gw.url, { path: '/' })).status).toBe(403);
  expect(gw.gateway.limitStats().rejectedSlowDown).toBe(0);
  backend.release();
  await held;
});

it('counts bodies cut by the body idle timeout', async () => {
  const gw = await start(new MemoryBackend(), { bodyIdleTimeoutMs: 100 });
  await gw.client.send(new CreateBucketCommand({ Bucket: 'limits' }));
  const cut = await signedRaw(gw.url, ACCESS, SECRET, {
    method: 'PUT',
    path: '/limits/slow',
    headers: { 'content-length': '10', 'x-amz-content-sha256': 'UNSIGNED-PAYLOAD' },
    partialBody: Buffer.from('a'),
  });
  expect(cut.status).toBe(400);
  expect(cut.body).toContain('<Code>RequestTimeout</Code>');
  expect(gw.gateway.limitStats().bodyIdleTimeouts).toBe(1);
});
