// createGateway(): assembles the hono app — request id → observe (metrics hook, access log) → health → request limit →
// plugin middlewares → extra middlewares → router over the route table — with one error handler,
// a listen() that serves it on Node's HTTP server, and an ordered shutdown() (servers, plugins in
// reverse order, backend).
import { Hono } from 'hono';
import { Authorizer } from './authz/index.js';
import type { GatewayEnv, GatewayOptions } from './env.js';
import { adminBucketHandlers, adminUserHandlers, IamStore, singleUserHandlers } from './iam/index.js';
import { defaultLogger } from './logger.js';
import { errorHandler } from './middleware/error-handler.js';
import { healthMiddleware } from './middleware/health.js';
import { requestIdMiddleware } from './middleware/request-id.js';
import { requestLimitMiddleware } from './middleware/request-limit.js';
import { accessLogObserver, LimitCounters, type LimitStats, observeMiddleware } from './observe/index.js';
import { checkPluginNames, pluginAdminHandlers, pluginStats, runShutdown } from './plugins/index.js';
import { createRouter } from './routes/router.js';
import { ROUTES } from './routes/table.js';
import { type ListenOptions, listen, type RunningGateway } from './server/listen.js';

export interface Gateway {
  app: Hono<GatewayEnv>;
  /** The account store, when createGateway() was given one. */
  iam?: IamStore;
  listen(opts: ListenOptions): Promise<RunningGateway>;
  /** Each plugin's `stats()`, by plugin name (plugins without stats are left out). */
  stats(): Record<string, unknown>;
  /** The limits' counters: open connections, requests in flight, SlowDown refusals, body idle timeouts. */
  limitStats(): LimitStats;
  /**
   * Closes every server listen() started (in-flight requests get the grace period), then calls
   * the plugins' shutdown() in reverse order, then `backend.shutdown()`. Every step runs even
   * when one fails; the failures are thrown together afterwards. Idempotent.
   */
  shutdown(): Promise<void>;
}

export const DEFAULT_REGION = 'us-east-1';
const CLOSE_GRACE_MS = 10_000;
/** How long a request body may send nothing before it fails with RequestTimeout. */
const DEFAULT_BODY_IDLE_TIMEOUT_MS = 60_000;

export function createGateway(options: GatewayOptions): Gateway {
  const logger = options.logger ?? defaultLogger;
  const region = options.region ?? DEFAULT_REGION;
  const plugins = options.plugins ?? [];
  checkPluginNames(plugins);
  const app = new Hono<GatewayEnv>();

  const limits = new LimitCounters();
  const observers = [...(options.accessLog ? [accessLogObserver(logger)] : []), ...(options.observers ?? [])];
  app.use(requestIdMiddleware());
  app.use(observeMiddleware(observers, limits));
  if (options.healthPath) app.use(healthMiddleware(options.healthPath));
  if (options.maxRequests) app.use(requestLimitMiddleware(options.maxRequests));
  for (const p of plugins) if (p.middleware) app.use(p.middleware);
  for (const m of options.middlewares ?? []) app.use(m);

  // An IamStore given as `credentials` counts as `iam` too.
  const iam = options.iam ?? (options.credentials instanceof IamStore ? options.credentials : undefined);
  const authorizer = new Authorizer({
    disableAcl: options.disableAcl ?? false,
    ...(options.bucketStateCache ? { cache: options.bucketStateCache } : {}),
  });
  const builtInAdmin = {
    ...(iam ? adminUserHandlers(iam) : singleUserHandlers()),
    ...adminBucketHandlers(iam, authorizer.cache),
  };
  const router = createRouter(ROUTES, {
    backend: options.backend,
    credentials: options.credentials ?? iam ?? missingCredentials(),
    authorizer,
    adminHandlers: {
      ...builtInAdmin,
      ...pluginAdminHandlers(plugins, builtInAdmin),
      ...options.adminHandlers,
    },
    region,
    readonly: options.readonly ?? false,
    anonymousAccess: options.anonymousAccess ?? false,
    logger,
    bodyIdleTimeoutMs: options.bodyIdleTimeoutMs ?? DEFAULT_BODY_IDLE_TIMEOUT_MS,
    ...(options.maxClockSkewMs === undefined ? {} : { maxClockSkewMs: options.maxClockSkewMs }),
    ...(options.virtualHostDomain === undefined ? {} : { virtualHostDomain: options.virtualHostDomain }),
  });
  app.all('*', (c) => router(c));
  app.onError(errorHandler(logger));

  const servers = new Set<RunningGateway>();
  let stopped: Promise<void> | undefined;
  const shutdown = () =>
    runShutdown([
      { name: 'HTTP server', run: () => Promise.all([...servers].map((s) => s.close())).then(() => {}) },
      ...plugins.toReversed().flatMap((p) => {
        const stop = p.shutdown?.bind(p);
        return stop ? [{ name: `plugin '${p.name}'`, run: stop }] : [];
      }),
      { name: `backend '${options.backend.name}'`, run: () => options.backend.shutdown() },
    ]);

  return {
    app,
    ...(iam ? { iam } : {}),
    listen: async (opts) => {
      if (stopped) throw new Error('createGateway: listen() after shutdown()');
      const running = await listen(app.fetch, opts, {
        requestTimeoutMs: options.requestTimeoutMs ?? 0,
        closeGraceMs: CLOSE_GRACE_MS,
        maxConnections: options.maxConnections ?? 0,
        limits,
      });
      servers.add(running);
      return running;
    },
    stats: () => pluginStats(plugins),
    limitStats: () => limits.snapshot(),
    shutdown: () => {
      stopped ??= shutdown();
      return stopped;
    },
  };
}

function missingCredentials(): never {
  throw new TypeError('createGateway: give `credentials` or `iam`');
}
