// GatewayPlugin: what an add-on (the RDMA data path is the first) contributes to a gateway. It
// installs itself once, when createGateway() runs: middlewares at named pipeline steps
// (pipeline/steps.ts), a decorator of the backend, and then serves admin operations, readiness,
// stats, per-request observation fields (access log, metrics) and a shutdown step. A plugin is a
// plain object, so a package can build one without depending on the gateway: structural typing
// is the contract.
import type { Backend } from '@vgwrdma/backend-contract';
import type { Context, MiddlewareHandler } from 'hono';
import type { GatewayEnv } from '../env.js';
import type { PluginStep } from '../pipeline/steps.js';
import type { Handler } from '../routes/types.js';

/** What a plugin's install() may do to the gateway being built. */
export interface GatewayStack {
  /** Adds `middleware` at `step`; it may `c.set(...)` request variables or throw an S3Error. */
  add(step: PluginStep, middleware: MiddlewareHandler<GatewayEnv>): void;
  /**
   * Decorates the backend the handlers call (plugins in order: the last one is outermost). The
   * gateway still shuts down only the backend it was given; a decorator's own resources are the
   * plugin's to release in its shutdown().
   */
  wrapBackend(wrap: (backend: Backend) => Backend): void;
}

/** What a plugin reports about one request once its response ended. */
export interface PluginObservation {
  /** Payload bytes the plugin moved outside the HTTP body (the access log's object size). */
  readonly objectSize?: number;
  /** The plugin's own fields: `RequestObservation.plugins[name]` (the plugin exports their type). */
  readonly fields?: unknown;
}

export interface GatewayPlugin {
  /** Names the plugin in errors, `Gateway.stats()` and observations; unique among a gateway's plugins. */
  readonly name: string;
  /** Called once by createGateway(), in plugin order, before any request is served. */
  install?(stack: GatewayStack): void;
  /**
   * Lower-case prefixes of request headers the plugin acts on beyond x-amz-* (which S3 already
   * requires signed). A SigV4 request carrying such a header outside its signature is refused at
   * the authenticate step (403 AccessDenied, HeadersNotSigned), as an unsigned x-amz-* one is.
   * SigV2 signs only x-amz-* headers: a plugin that needs its headers signed refuses SigV2 at its
   * own afterAuthenticate middleware, from `auth.signing.version`.
   */
  readonly signedHeaderPrefixes?: readonly string[];
  /** Shorthand for `stack.add('beforeTarget', middleware)`. */
  readonly middleware?: MiddlewareHandler<GatewayEnv>;
  /** `PATCH /<name>` admin operations, admin accounts only; a name may be claimed once. */
  readonly adminHandlers?: Readonly<Record<string, Handler>>;
  /** The plugin's counters as JSON-able data, collected by `Gateway.stats()`. */
  stats?(): unknown;
  /**
   * Whether the plugin can serve now (the RDMA plugin: pool allocated, RDMA server up), asked by
   * the gateway's ready path next to its backend probe; `ok: false` makes the path answer 503.
   */
  readiness?(): { ok: boolean; detail?: string } | Promise<{ ok: boolean; detail?: string }>;
  /**
   * The plugin's outcome for this request (when its response ended or its connection closed), or
   * undefined when it took no part. Must not throw.
   */
  observe?(c: Context<GatewayEnv>): PluginObservation | undefined;
  /**
   * Releases what the plugin owns. Called once by `Gateway.shutdown()`, in reverse plugin order,
   * after every HTTP server of the gateway closed and before the backend shuts down.
   */
  shutdown?(): Promise<void>;
}

/** Throws when two plugins share a name: their stats and errors would be ambiguous. */
export function checkPluginNames(plugins: readonly GatewayPlugin[]): void {
  const seen = new Set<string>();
  for (const p of plugins) {
    if (seen.has(p.name)) throw new TypeError(`createGateway: two plugins are named '${p.name}'`);
    seen.add(p.name);
  }
}

/**
 * The admin handlers of every plugin, merged. A name claimed by two plugins, or by a plugin and
 * the gateway itself (`builtIn`), is a configuration error, not a silent override.
 */
export function pluginAdminHandlers(
  plugins: readonly GatewayPlugin[],
  builtIn: Readonly<Record<string, Handler>>,
): Record<string, Handler> {
  const merged: Record<string, Handler> = {};
  const owner = new Map<string, string>(Object.keys(builtIn).map((name) => [name, 'the gateway']));
  for (const p of plugins) {
    for (const [name, handler] of Object.entries(p.adminHandlers ?? {})) {
      const taken = owner.get(name);
      if (taken !== undefined)
        throw new TypeError(
          `createGateway: plugin '${p.name}' adds admin operation '${name}', already ${taken}'s`,
        );
      owner.set(name, `plugin '${p.name}'`);
      merged[name] = handler;
    }
  }
  return merged;
}

/** Every plugin's signedHeaderPrefixes, lower-cased, each once; undefined when none declares any. */
export function pluginSignedHeaderPrefixes(plugins: readonly GatewayPlugin[]): string[] | undefined {
  const prefixes = new Set(plugins.flatMap((p) => p.signedHeaderPrefixes ?? []).map((x) => x.toLowerCase()));
  return prefixes.size === 0 ? undefined : [...prefixes];
}

/** `{ [plugin name]: stats }` for the plugins that report any. */
export function pluginStats(plugins: readonly GatewayPlugin[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const p of plugins) if (p.stats) out[p.name] = p.stats();
  return out;
}
