// createGateway({ plugins }): where a plugin's middleware runs in the pipeline, how its admin
// operations and stats are served, and the ordered shutdown — HTTP servers first (an in-flight
// request still finishes), then plugins in reverse order, then the backend, each step once.

import { type GetObjectInput, type RequestContext, S3Error } from '@vgwrdma/backend-contract';
import { parseRdmaToken } from '@vgwrdma/rdma-protocol';
import { MemoryBackend } from '@vgwrdma/test-kit/memory';
import type { MiddlewareHandler } from 'hono';
import { afterEach, describe, expect, it } from 'vitest';
import { staticCredentials } from '../src/auth/index.js';
import { createGateway, type Gateway } from '../src/create-gateway.js';
import type { GatewayEnv } from '../src/env.js';
import type { GatewayOptions } from '../src/gateway-options.js';
import type { GatewayPlugin } from '../src/plugins/index.js';
import type { RunningGateway } from '../src/server/listen.js';
import { ADMIN_ACCESS, ADMIN_SECRET } from './support/harness.js';
import { raw } from './support/raw-http.js';
import { signedRaw } from './support/signed-raw.js';

const USER = { access: 'AKIDPLUGINUSER', secret: 'plugin-user-secret' };

/** A memory backend that records its shutdown and the server's state at that moment. */
class RecordingBackend extends MemoryBackend {
  constructor(private readonly events: string[]) {
    super();
  }
  override async shutdown(): Promise<void> {
    this.events.push('backend shutdown');
  }
}

/** A plugin that logs its middleware runs and its shutdown into `events`. */
function recordingPlugin(name: string, events: string[], extra: Partial<GatewayPlugin> = {}): GatewayPlugin {
  const middleware: MiddlewareHandler<GatewayEnv> = async (c, next) => {
    events.push(`${name} middleware (request id ${c.get('requestId') ? 'set' : 'unset'})`);
    await next();
  };
  return {
    name,
    middleware,
    shutdown: async () => {
      events.push(`${name} shutdown`);
    },
    ...extra,
  };
}

const gateways: Gateway[] = [];
afterEach(async () => {
  await Promise.allSettled(gateways.splice(0).map((g) => g.shutdown()));
});

function gatewayWith(options: Partial<GatewayOptions> & Pick<GatewayOptions, 'backend'>): Gateway {
  const gateway = createGateway({
    credentials: staticCredentials([
      { access: USER.access, secret: USER.secret, account: { role: 'userplus' } },
      { access: ADMIN_ACCESS, secret: ADMIN_SECRET, account: { role: 'admin' } },
    ]),
    region: 'us-east-1',
    ...options,
  });
  gateways.push(gateway);
  return gateway;
}

async function serve(gateway: Gateway): Promise<RunningGateway> {
  return gateway.listen({ port: 0, host: '127.0.0.1' });
}

/** Creates `bucket` as the admin, then HEADs it; the HEAD's status. */
async function createAndHead(running: RunningGateway, bucket: string): Promise<number> {
  await signedRaw(running.url, ADMIN_ACCESS, ADMIN_SECRET, { method: 'PUT', path: `/${bucket}` });
  const head = await signedRaw(running.url, ADMIN_ACCESS, ADMIN_SECRET, {
    method: 'HEAD',
    path: `/${bucket}`,
  });
  return head.status;
}

describe('plugin middleware', () => {
  it('runs after request id and health, in plugin order, before `middlewares` and authentication', async () => {
    const events: string[] = [];
    const late: MiddlewareHandler<GatewayEnv> = async (_c, next) => {
      events.push('options.middlewares');
      await next();
    };
    const gateway = gatewayWith({
      backend: new RecordingBackend(events),
      plugins: [recordingPlugin('first', events), recordingPlugin('second', events)],
      middlewares: [late],
      healthPath: '/healthz',
    });
    const running = await serve(gateway);

    const health = await raw(running.url, { path: '/healthz' });
    expect(health.status).toBe(200);
    expect(events).toEqual([]);

    // Unsigned: the router refuses it, but only after the plugins saw the request.
    const refused = await raw(running.url, { path: '/some-bucket' });
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(events).toEqual([
      'first middleware (request id set)',
      'second middleware (request id set)',
      'options.middlewares',
    ]);
  });

  it('hands what a plugin middleware sets to the backend, and renders the S3Error it throws', async () => {
    const seen: (RequestContext['rdma'] | undefined)[] = [];
    class Backend extends MemoryBackend {
      override async headBucket(ctx: RequestContext, bucket: string) {
        seen.push(ctx.rdma);
        return super.headBucket(ctx, bucket);
      }
    }
    // Any well-formed token will do: the example from docs/protocol.md.
    const token = parseRdmaToken(
      '000073967e5ff000:00400000:01f2e973:0000:007a03:1:00000000000000000000ffff0f0f0fdf',
    );
    const descriptor = { token, scheme: 'token' as const };
    const plugin: GatewayPlugin = {
      name: 'descriptor',
      middleware: async (c, next) => {
        if (c.req.header('x-test-refuse')) throw new S3Error('InvalidArgument');
        c.set('backendContext', { rdma: descriptor });
        await next();
      },
    };
    const backend = new Backend();
    const gateway = gatewayWith({ backend, plugins: [plugin] });
    const running = await serve(gateway);
    expect(await createAndHead(running, 'plugged')).toBe(200);
    expect(seen).toEqual([descriptor]);

    const refused = await raw(running.url, { path: '/plugged', headers: { 'x-test-refuse': '1' } });
    expect(refused.status).toBe(400);
    expect(refused.body).toContain('<Code>InvalidArgument</Code>');
  });
});

describe('plugin install: named steps, backend decorator, observation fields', () => {
  it('runs each step middleware at its point: target parsed, then authenticated, then authorized', async () => {
    const events: string[] = [];
    const plugin: GatewayPlugin = {
      name: 'steps',
      install(stack) {
        stack.add('afterBody', async (c, next) => {
          events.push(`afterBody (body ${c.get('body') === undefined ? 'absent' : 'decoded'})`);
          await next();
        });
        stack.add('afterAuthorize', async (c, next) => {
          events.push(`afterAuthorize (context for ${c.get('requestContext').account.access})`);
          await next();
        });
        stack.add('afterAuthenticate', async (c, next) => {
          events.push(
            `afterAuthenticate (${c.get('auth').anonymous ? 'anonymous' : c.get('account').access})`,
          );
          await next();
        });
        stack.add('afterTarget', async (c, next) => {
          events.push(`afterTarget (${c.get('route').operation}, auth ${c.get('auth') ? 'set' : 'unset'})`);
          await next();
        });
      },
    };
    const gateway = gatewayWith({ backend: new MemoryBackend(), plugins: [plugin] });
    const running = await serve(gateway);
    const put = await signedRaw(running.url, ADMIN_ACCESS, ADMIN_SECRET, { method: 'PUT', path: '/steps' });
    expect(put.status).toBe(200);
    expect(events).toEqual([
      'afterTarget (CreateBucket, auth unset)',
      `afterAuthenticate (${ADMIN_ACCESS})`,
      `afterAuthorize (context for ${ADMIN_ACCESS})`,
      'afterBody (body decoded)',
    ]);
    // An unsigned request is authenticated as anonymous, then refused by the authorize step: the
    // points after it never run.
    events.length = 0;
    const unsigned = await raw(running.url, { method: 'HEAD', path: '/steps' });
    expect(unsigned.status).toBe(403);
    expect(events).toEqual(['afterTarget (HeadBucket, auth unset)', 'afterAuthenticate (anonymous)']);
  });

  it('refuses a step name the pipeline does not have', () => {
    const plugin: GatewayPlugin = {
      name: 'typo',
      install: (stack) => stack.add('afterAuth' as never, async (_c, next) => next()),
    };
    expect(() => gatewayWith({ backend: new MemoryBackend(), plugins: [plugin] })).toThrow(
      "plugin 'typo': no pipeline step 'afterAuth'",
    );
  });

  it('serves requests through the backend decorators, last plugin outermost; shuts down the given backend', async () => {
    const events: string[] = [];
    const decorate =
      (name: string) =>
      (inner: import('@vgwrdma/backend-contract').Backend): import('@vgwrdma/backend-contract').Backend =>
        new Proxy(inner, {
          get(target, prop, receiver) {
            if (prop !== 'headBucket') return Reflect.get(target, prop, receiver);
            return (ctx: RequestContext, bucket: string) => {
              events.push(name);
              return target.headBucket(ctx, bucket);
            };
          },
        });
    const backend = new RecordingBackend(events);
    const gateway = gatewayWith({
      backend,
      plugins: [
        { name: 'inner', install: (stack) => stack.wrapBackend(decorate('inner')) },
        { name: 'outer', install: (stack) => stack.wrapBackend(decorate('outer')) },
      ],
    });
    const running = await serve(gateway);
    expect(await createAndHead(running, 'wrapped')).toBe(200);
    expect(events).toEqual(['outer', 'inner']);
    await gateway.shutdown();
    expect(events).toEqual(['outer', 'inner', 'backend shutdown']);
  });

  it("hands each plugin's observation fields and moved bytes to the observers, by plugin name", async () => {
    const seen: import('../src/observe/index.js').RequestObservation[] = [];
    const marked = new WeakSet<object>();
    const plugin: GatewayPlugin = {
      name: 'marker',
      install: (stack) =>
        stack.add('afterAuthenticate', async (c, next) => {
          if (c.req.header('x-test-mark')) marked.add(c);
          await next();
        }),
      observe: (c) => (marked.has(c) ? { objectSize: 42, fields: { marked: true } } : undefined),
    };
    const gateway = gatewayWith({
      backend: new MemoryBackend(),
      plugins: [plugin],
      observers: [(o) => seen.push(o)],
    });
    const running = await serve(gateway);
    await signedRaw(running.url, ADMIN_ACCESS, ADMIN_SECRET, { method: 'PUT', path: '/observed' });
    await signedRaw(running.url, ADMIN_ACCESS, ADMIN_SECRET, {
      method: 'PUT',
      path: '/observed/k',
      headers: { 'x-test-mark': '1' },
    });
    await expect.poll(() => seen.length).toBe(2);
    expect(seen[0]?.plugins).toBeUndefined();
    expect(seen[1]?.plugins).toEqual({ marker: { marked: true } });
    expect(seen[1]?.objectSize).toBe(42);
  });
});

describe('plugin admin operations and stats', () => {
  it('serves a plugin admin handler to admin accounts only', async () => {
    let counter = 0;
    const plugin: GatewayPlugin = {
      name: 'counter',
      adminHandlers: {
        'counter-stats': async () =>
          new Response(JSON.stringify({ counter: ++counter }), {
            headers: { 'content-type': 'application/json' },
          }),
      },
      stats: () => ({ counter }),
    };
    const gateway = gatewayWith({ backend: new MemoryBackend(), plugins: [plugin] });
    const running = await serve(gateway);

    const admin = await signedRaw(running.url, ADMIN_ACCESS, ADMIN_SECRET, {
      method: 'PATCH',
      path: '/counter-stats',
    });
    expect(admin.status).toBe(200);
    expect(JSON.parse(admin.body)).toEqual({ counter: 1 });

    const user = await signedRaw(running.url, USER.access, USER.secret, {
      method: 'PATCH',
      path: '/counter-stats',
    });
    expect(user.status).toBe(403);
    expect(counter).toBe(1);
    expect(gateway.stats()).toEqual({ counter: { counter: 1 } });
  });

  it('refuses an admin name claimed twice, and two plugins of one name', () => {
    const handler = async () => new Response('');
    const credentials = staticCredentials([]);
    const a: GatewayPlugin = { name: 'a', adminHandlers: { shared: handler } };
    const b: GatewayPlugin = { name: 'b', adminHandlers: { shared: handler } };
    expect(() => createGateway({ backend: new MemoryBackend(), credentials, plugins: [a, b] })).toThrow(
      "createGateway: plugin 'b' adds admin operation 'shared', already plugin 'a''s",
    );
    const builtIn: GatewayPlugin = { name: 'c', adminHandlers: { 'list-buckets': handler } };
    expect(() => createGateway({ backend: new MemoryBackend(), credentials, plugins: [builtIn] })).toThrow(
      "admin operation 'list-buckets', already the gateway's",
    );
    expect(() =>
      createGateway({ backend: new MemoryBackend(), credentials, plugins: [{ name: 'x' }, { name: 'x' }] }),
    ).toThrow("createGateway: two plugins are named 'x'");
  });
});

describe('Gateway.shutdown()', () => {
  it('closes the servers (in-flight requests finish), then plugins in reverse order, then the backend', async () => {
    const events: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    class SlowBackend extends RecordingBackend {
      override async headObject(ctx: RequestContext, input: GetObjectInput) {
        events.push('request entered');
        await gate;
        events.push('request answered');
        return super.headObject(ctx, input);
      }
    }
    const backend = new SlowBackend(events);
    await backend.createBucket({} as RequestContext, {
      bucket: 'b',
      owner: '',
      acl: { Owner: '', Grantees: [] },
    });
    let running!: RunningGateway;
    const listening = (name: string) => async () => {
      events.push(`${name} shutdown (server ${running.server.listening ? 'listening' : 'closed'})`);
    };
    const gateway = gatewayWith({
      backend,
      anonymousAccess: true,
      plugins: [
        { name: 'first', shutdown: listening('first') },
        { name: 'no-shutdown' },
        { name: 'last', shutdown: listening('last') },
      ],
    });
    running = await serve(gateway);
    const inflight = raw(running.url, { method: 'HEAD', path: '/slow-bucket/missing' });
    while (!events.includes('request entered')) await new Promise((r) => setTimeout(r, 5));

    const stopping = gateway.shutdown();
    await new Promise((r) => setTimeout(r, 50));
    expect(events).toEqual(['request entered']);
    release();
    // Answered (NoSuchKey), not cut off by the closing server.
    expect((await inflight).status).toBe(404);
    await stopping;
    expect(events).toEqual([
      'request entered',
      'request answered',
      'last shutdown (server closed)',
      'first shutdown (server closed)',
      'backend shutdown',
    ]);

    const steps = events.length;
    await gateway.shutdown();
    expect(events).toHaveLength(steps);
    await expect(serve(gateway)).rejects.toThrow('listen() after shutdown()');
  });

  it('runs every step when a plugin fails, then reports the failure by plugin name', async () => {
    const events: string[] = [];
    const gateway = gatewayWith({
      backend: new RecordingBackend(events),
      plugins: [
        recordingPlugin('first', events),
        recordingPlugin('broken', events, {
          shutdown: async () => {
            throw new Error('cannot let go');
          },
        }),
      ],
    });
    await serve(gateway);
    await expect(gateway.shutdown()).rejects.toThrow("plugin 'broken': cannot let go");
    expect(events).toEqual(['first shutdown', 'backend shutdown']);
  });

  it('shuts plugins and backend down also when the gateway never listened', async () => {
    const events: string[] = [];
    const gateway = gatewayWith({
      backend: new RecordingBackend(events),
      plugins: [recordingPlugin('only', events)],
    });
    await gateway.shutdown();
    expect(events).toEqual(['only shutdown', 'backend shutdown']);
  });
});
