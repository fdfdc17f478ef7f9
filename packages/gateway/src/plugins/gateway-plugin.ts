// GatewayPlugin: what an add-on (the RDMA data path is the first) contributes to a gateway — a
// request middleware in the pipeline's extension slot, admin operations, a stats provider, and a
// shutdown step. A plugin is a plain object, so a package can build one without depending on the
// gateway: structural typing is the contract.
import type { MiddlewareHandler } from 'hono';
import type { GatewayEnv } from '../env.js';
import type { Handler } from '../routes/types.js';

export interface GatewayPlugin {
  /** Names the plugin in errors and in `Gateway.stats()`; unique among a gateway's plugins. */
  readonly name: string;
  /**
   * Runs after request id → observe → health → request limit and before `middlewares` and the
   * router, in plugin order. It may `c.set(...)` variables (the RDMA descriptor) or throw an
   * S3Error, which the gateway's error handler renders.
   */
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

/** `{ [plugin name]: stats }` for the plugins that report any. */
export function pluginStats(plugins: readonly GatewayPlugin[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const p of plugins) if (p.stats) out[p.name] = p.stats();
  return out;
}
