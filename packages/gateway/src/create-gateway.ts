// createGateway(): installs the plugins (their middlewares at named steps, their backend
// decorators), then assembles the hono app — request id → observe (metrics hook, access log) →
// health → ready → request limit → the pipeline's steps over the route table (pipeline/steps.ts)
// — with one error handler, a listen() that serves it on Node's HTTP server, and an ordered
// shutdown() (servers, plugins in reverse order, backend).
import { Hono } from 'hono';
import { Authorizer } from './authz/index.js';
import { consoleCorsRule } from './cors/console-rule.js';
import { defaultCorsRule } from './cors/default-rule.js';
import type { GatewayEnv } from './env.js';
import { EventNotifier } from './events/index.js';
import type { GatewayOptions } from './gateway-options.js';
import { gatewaySettings } from './gateway-settings.js';
import { checkReadiness } from './health/readiness.js';
import { adminBucketHandlers, adminUserHandlers, IamStore, singleUserHandlers } from './iam/index.js';
import { defaultLogger } from './logger.js';
import { errorHandler } from './middleware/error-handler.js';
import { healthMiddleware } from './middleware/health.js';
import { readyMiddleware } from './middleware/ready.js';
import { requestIdMiddleware } from './middleware/request-id.js';
import { requestLimitMiddleware } from './middleware/request-limit.js';
import { accessLogObserver, observeMiddleware } from './observe/index.js';
import { installPipeline } from './pipeline/index.js';
import {
  checkPluginNames,
  installPlugins,
  pluginAdminHandlers,
  pluginSignedHeaderPrefixes,
  pluginStats,
  runShutdown,
} from './plugins/index.js';
import { DEFAULT_REQUEST_LIMITS } from './routes/request-limits.js';
import { ROUTES } from './routes/table.js';
import { InFlightRequests } from './server/in-flight.js';
import { LimitCounters, type LimitStats } from './server/limit-stats.js';
import { type ListenOptions, listen, type RunningGateway } from './server/listen.js';

export interface Gateway {
  app: Hono<GatewayEnv>;
  /** The account store, when createGateway() was given one. */
  iam?: IamStore;
  listen(opts: ListenOptions): Promise<RunningGateway>;
  /** Bucket event notifications (with `eventNotifications`): delivery counters, drain. */
  events?: EventNotifier;
  /** Each plugin's `stats()`, by plugin name (plugins without stats are left out). */
  stats(): Record<string, unknown>;
  /** The listener limits' counters now: open connections, in-flight requests, refusals, idle cuts. */
  limitStats(): LimitStats;
  /**
   * Closes every server listen() started (in-flight requests get the grace period), then calls
   * the plugins' shutdown() in reverse order, then `backend.shutdown()`. Every step runs even
   * when one fails; the failures are thrown together afterwards. Idempotent.
   */
  shutdown(): Promise<void>;
}

export const DEFAULT_REGION = 'us-east-1';
/** How long shutdown() lets in-flight requests finish before cutting them (shutdownTimeoutMs). */
export const DEFAULT_SHUTDOWN_TIMEOUT_MS = 30_000;
/** How long a request body may send nothing before it fails with RequestTimeout. */
const DEFAULT_BODY_IDLE_TIMEOUT_MS = 60_000;

/** Throws an InvalidArgumentError naming each bad plain-value setting (gateway-settings.ts), before anything is built. */
export function createGateway(options: GatewayOptions): Gateway {
  // The plain values, checked once by the schema vgwrdma's flags derive from; the objects as given.
  const settings = gatewaySettings(options);
  const logger = options.logger ?? defaultLogger;
  const region = settings.region ?? DEFAULT_REGION;
  const plugins = options.plugins ?? [];
  checkPluginNames(plugins);
  // Each plugin installs itself once: middlewares at named steps, a decorator of the backend.
  const installed = installPlugins(plugins, options.backend);
  const backend = installed.backend;
  const app = new Hono<GatewayEnv>();
  const counters = new LimitCounters();
  const inFlight = new InFlightRequests();

  const observers = [
    ...(settings.accessLog ? [accessLogObserver(logger)] : []),
    ...(options.observers ?? []),
  ];
  app.use(requestIdMiddleware());
  app.use(observeMiddleware(observers, plugins));
  if (settings.healthPath) app.use(healthMiddleware(settings.healthPath));
  if (settings.readyPath)
    app.use(readyMiddleware(settings.readyPath, () => checkReadiness(options.backend, plugins)));
  // Always counts in-flight requests (limitStats); refuses with SlowDown only with maxRequests.
  app.use(requestLimitMiddleware(settings.maxRequests ?? 0, counters, inFlight));

  // An IamStore given as `credentials` counts as `iam` too.
  const iam = options.iam ?? (options.credentials instanceof IamStore ? options.credentials : undefined);
  const authorizer = new Authorizer({
    disableAcl: settings.disableAcl ?? false,
    ...(settings.bucketStateCache ? { cache: settings.bucketStateCache } : {}),
  });
  const builtInAdmin = {
    ...(iam ? adminUserHandlers(iam) : singleUserHandlers()),
    ...adminBucketHandlers(iam, authorizer.cache),
  };
  const events = options.eventNotifications
    ? new EventNotifier(backend, logger, options.eventNotifications)
    : undefined;
  const signedHeaderPrefixes = pluginSignedHeaderPrefixes(plugins);
  const at = {
    ...installed.at,
    beforeTarget: [...installed.at.beforeTarget, ...(options.middlewares ?? [])],
  };
  installPipeline(
    app,
    ROUTES,
    {
      backend,
      ...(events ? { events } : {}),
      credentials: options.credentials ?? iam ?? missingCredentials(),
      authorizer,
      adminHandlers: {
        ...builtInAdmin,
        ...pluginAdminHandlers(plugins, builtInAdmin),
        ...options.adminHandlers,
      },
      region,
      readonly: settings.readonly ?? false,
      anonymousAccess: settings.anonymousAccess ?? false,
      logger,
      bodyIdleTimeoutMs: settings.bodyIdleTimeoutMs ?? DEFAULT_BODY_IDLE_TIMEOUT_MS,
      onBodyIdleTimeout: () => counters.bodyIdleTimeouts++,
      ...(settings.maxClockSkewMs === undefined ? {} : { maxClockSkewMs: settings.maxClockSkewMs }),
      ...(signedHeaderPrefixes === undefined ? {} : { signedHeaderPrefixes }),
      ...(settings.virtualHostDomain === undefined ? {} : { virtualHostDomain: settings.virtualHostDomain }),
      limits: {
        maxParts: settings.multipartMaxParts ?? DEFAULT_REQUEST_LIMITS.maxParts,
        copyObjectThreshold: settings.copyObjectThreshold ?? DEFAULT_REQUEST_LIMITS.copyObjectThreshold,
      },
      ...(settings.corsAllowOrigin === undefined
        ? {}
        : { defaultCors: defaultCorsRule(settings.corsAllowOrigin) }),
      ...(settings.consoleOrigins === undefined || settings.consoleOrigins.length === 0
        ? {}
        : { consoleCors: consoleCorsRule(settings.consoleOrigins) }),
    },
    at,
  );
  app.onError(errorHandler(logger));

  const servers = new Set<RunningGateway>();
  let stopped: Promise<void> | undefined;
  const shutdown = () =>
    runShutdown([
      { name: 'HTTP server', run: () => Promise.all([...servers].map((s) => s.close())).then(() => {}) },
      // Undelivered notifications are dropped at shutdown, unless the queue is on disk (queueDir).
      ...(events ? [{ name: 'event notifications', run: async () => events.close() }] : []),
      ...plugins.toReversed().flatMap((p) => {
        const stop = p.shutdown?.bind(p);
        return stop ? [{ name: `plugin '${p.name}'`, run: stop }] : [];
      }),
      { name: `backend '${options.backend.name}'`, run: () => options.backend.shutdown() },
    ]);

  return {
    app,
    ...(iam ? { iam } : {}),
    ...(events ? { events } : {}),
    listen: async (opts) => {
      if (stopped) throw new Error('createGateway: listen() after shutdown()');
      const running = await listen(app.fetch, opts, {
        requestTimeoutMs: settings.requestTimeoutMs ?? 0,
        closeGraceMs: settings.shutdownTimeoutMs ?? DEFAULT_SHUTDOWN_TIMEOUT_MS,
        maxConnections: settings.maxConnections ?? 0,
        counters,
        inFlight,
      });
      servers.add(running);
      return running;
    },
    stats: () => pluginStats(plugins),
    limitStats: () => counters.snapshot(),
    shutdown: () => {
      stopped ??= shutdown();
      return stopped;
    },
  };
}

function missingCredentials(): never {
  throw new TypeError('createGateway: give `credentials` or `iam`');
}
