// createGateway options that shape the server and the request context: extra middlewares and
// the RDMA descriptor, the disconnect signal, timeouts, and close() draining in-flight requests.
import { connect } from 'node:net';
import { CreateBucketCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import {
  type GetObjectInput,
  type HeadObjectOutput,
  type RdmaDescriptor,
  type RequestContext,
  S3Error,
} from '@vgwrdma/backend-contract';
import { parseRdmaToken } from '@vgwrdma/rdma-protocol';
import { MemoryBackend } from '@vgwrdma/test-kit/memory';
import type { MiddlewareHandler } from 'hono';
import { afterEach, expect, it } from 'vitest';
import type { GatewayEnv } from '../src/env.js';
import { ACCESS, startGateway, type TestGateway } from './support/harness.js';
import { raw } from './support/raw-http.js';

/** A backend whose HEAD waits until released, and reports the context it saw. */
class GatedBackend extends MemoryBackend {
  entered!: Promise<RequestContext>;
  private enter!: (ctx: RequestContext) => void;
  release!: () => void;
  constructor() {
    super();
    this.arm();
  }
  arm(): void {
    this.entered = new Promise((r) => {
      this.enter = r;
    });
  }
  override async headObject(ctx: RequestContext, input: GetObjectInput): Promise<HeadObjectOutput> {
    const gate = new Promise<void>((r) => {
      this.release = r;
    });
    this.enter(ctx);
    await gate;
    return super.headObject(ctx, input);
  }
}

const started: TestGateway[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((g) => g.close()));
});

it('hands an RDMA descriptor set by a middleware to the backend, with account and request id', async () => {
  const descriptor: RdmaDescriptor = {
    token: parseRdmaToken(
      '000073967e5ff000:00400000:01f2e973:0000:007a03:1:00000000000000000000ffff0f0f0fdf',
    ),
    scheme: 'token',
  };
  const setRdma: MiddlewareHandler<GatewayEnv> = async (c, next) => {
    if (c.req.header('x-amz-rdma-token')) c.set('backendContext', { rdma: descriptor });
    await next();
  };
  const backend = new MemoryBackend();
  const gw = await startGateway(backend, { middlewares: [setRdma] });
  started.push(gw);
  await gw.client.send(new CreateBucketCommand({ Bucket: 'ctx' }));
  expect(backend.lastCtx.get('createBucket')?.rdma).toBeUndefined();
  const put = new PutObjectCommand({ Bucket: 'ctx', Key: 'k', Body: 'hello' });
  put.middlewareStack.add(
    (next) => async (args) => {
      (args.request as { headers: Record<string, string> }).headers['x-amz-rdma-token'] = 'present';
      return next(args);
    },
    { step: 'build' },
  );
  await gw.client.send(put);
  const ctx = backend.lastCtx.get('putObject');
  expect(ctx?.rdma).toEqual(descriptor);
  expect(ctx?.account.access).toBe(ACCESS);
  expect(ctx?.requestId).toMatch(/^[0-9A-F]{16}$/);
});

it('aborts the context signal when the client disconnects', async () => {
  const backend = new GatedBackend();
  const gw = await startGateway(backend, { anonymousAccess: true });
  started.push(gw);
  await backend.createBucket({} as RequestContext, {
    bucket: 'gate',
    owner: '',
    acl: { Owner: '', Grantees: [] },
  });
  const sock = connect(Number(new URL(gw.url).port), '127.0.0.1');
  sock.write('HEAD /gate/k HTTP/1.1\r\nHost: x\r\n\r\n');
  const ctx = await backend.entered;
  expect(ctx.signal.aborted).toBe(false);
  const aborted = new Promise((r) => ctx.signal.addEventListener('abort', r));
  sock.destroy();
  await aborted;
  expect(ctx.signal.aborted).toBe(true);
  backend.release();
});

it('sets Node server timeouts from the options (no request timeout by default)', async () => {
  const a = await startGateway(new MemoryBackend());
  const b = await startGateway(new MemoryBackend(), { requestTimeoutMs: 5000 });
  started.push(a, b);
  expect(a.running.server.requestTimeout).toBe(0);
  expect(b.running.server.requestTimeout).toBe(5000);
  expect(b.running.server.headersTimeout).toBeLessThanOrEqual(5000);
  expect(a.running.server.keepAliveTimeout).toBeGreaterThan(0);
  expect(a.running.url).toBe(`http://127.0.0.1:${a.running.port}`);
});

it('close() stops accepting, lets an in-flight request finish, then resolves', async () => {
  const backend = new GatedBackend();
  const gw = await startGateway(backend, { anonymousAccess: true });
  await gw.client.send(new CreateBucketCommand({ Bucket: 'drain' }));
  await gw.client.send(new PutObjectCommand({ Bucket: 'drain', Key: 'k', Body: 'x' }));
  const inflight = raw(gw.url, { method: 'HEAD', path: '/drain/k' });
  await backend.entered;
  let closed = false;
  const closing = gw.close().then(() => {
    closed = true;
  });
  // New connections are refused once close() has begun.
  const refused = await new Promise<boolean>((resolve) => {
    const s = connect(gw.running.port, '127.0.0.1');
    s.once('connect', () => {
      s.destroy();
      resolve(false);
    });
    s.once('error', () => resolve(true));
  });
  expect(refused).toBe(true);
  expect(closed).toBe(false);
  backend.release();
  const res = await inflight;
  expect(res.status).toBe(200);
  await closing;
  expect(closed).toBe(true);
});

/** Stands in for a decorator such as CuServer that adds reply headers. */
class ReplyHeaderBackend extends MemoryBackend {
  override async putObject(ctx: RequestContext, input: Parameters<MemoryBackend['putObject']>[1]) {
    const out = await super.putObject(ctx, input);
    return { ...out, responseHeaders: { 'x-amz-rdma-reply': '200' } };
  }
  override async getObject(ctx: RequestContext, input: GetObjectInput) {
    if (input.key === 'declined') {
      throw new S3Error('NotImplemented', undefined, { headers: { 'x-amz-rdma-reply': '501' } });
    }
    const out = await super.getObject(ctx, input);
    return { ...out, responseHeaders: { 'x-amz-rdma-reply': '200' } };
  }
}

it('sends the reply headers a backend asks for, on success and on errors', async () => {
  const gw = await startGateway(new ReplyHeaderBackend(), { anonymousAccess: true });
  started.push(gw);
  await gw.client.send(new CreateBucketCommand({ Bucket: 'reply' }));
  const put = await raw(gw.url, {
    method: 'PUT',
    path: '/reply/k',
    headers: { 'content-length': '2' },
    body: 'hi',
  });
  expect(put.headers['x-amz-rdma-reply']).toBe('200');
  const get = await raw(gw.url, { path: '/reply/k' });
  expect([get.body, get.headers['x-amz-rdma-reply']]).toEqual(['hi', '200']);
  const declined = await raw(gw.url, { path: '/reply/declined' });
  expect([declined.status, declined.headers['x-amz-rdma-reply']]).toEqual([501, '501']);
});

/** Collects log lines by level. */
function captureLogger() {
  const lines: { level: string; obj: Record<string, unknown>; msg?: string | undefined }[] = [];
  const at = (level: string) => (obj: object, msg?: string) =>
    void lines.push({ level, obj: obj as Record<string, unknown>, msg });
  return { lines, logger: { info: at('info'), warn: at('warn'), error: at('error'), debug: at('debug') } };
}

it('answers unexpected backend failures as InternalError and logs them', async () => {
  class Broken extends MemoryBackend {
    override async headBucket(): Promise<never> {
      throw new Error('disk on fire');
    }
  }
  const { lines, logger } = captureLogger();
  const gw = await startGateway(new Broken(), { anonymousAccess: true, logger });
  started.push(gw);
  const res = await raw(gw.url, { path: '/any-bucket?location' });
  expect(res.status).toBe(500);
  expect(res.body).toContain('<Code>InternalError</Code>');
  expect(res.body).not.toContain('disk on fire');
  const logged = lines.find((l) => l.level === 'error');
  expect((logged?.obj.err as Error | undefined)?.message).toBe('disk on fire');
  expect(logged?.obj.requestId).toBe(res.headers['x-amz-request-id']);
});

it('writes one access-log line per request with its final status', async () => {
  const { lines, logger } = captureLogger();
  const gw = await startGateway(new MemoryBackend(), { anonymousAccess: true, logger, accessLog: true });
  started.push(gw);
  const res = await raw(gw.url, { path: '/no-bucket/k' });
  // The line is written when the response closes, which may follow the client's 'end'.
  while (!lines.some((l) => l.level === 'info')) await new Promise((r) => setImmediate(r));
  const line = lines.find((l) => l.level === 'info');
  expect(line?.obj).toMatchObject({
    method: 'GET',
    url: '/no-bucket/k',
    status: 404,
    requestId: res.headers['x-amz-request-id'],
  });
});
