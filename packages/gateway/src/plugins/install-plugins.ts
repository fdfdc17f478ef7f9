// Runs every plugin's install() against one GatewayStack: collects the middlewares each registers
// at a named step (plus the `middleware` shorthand at beforeTarget) and composes the backend
// decorators in plugin order. The result is what createGateway() builds the pipeline from.
import type { Backend } from '@vgwrdma/backend-contract';
import type { MiddlewareHandler } from 'hono';
import type { GatewayEnv } from '../env.js';
import { PLUGIN_STEPS, type PluginStep } from '../pipeline/steps.js';
import type { GatewayPlugin } from './gateway-plugin.js';

export interface InstalledPlugins {
  /** The middlewares at each step, in plugin order. */
  readonly at: Readonly<Record<PluginStep, readonly MiddlewareHandler<GatewayEnv>[]>>;
  /** The backend the handlers call: `backend` under every plugin's decorator. */
  readonly backend: Backend;
}

export function installPlugins(plugins: readonly GatewayPlugin[], backend: Backend): InstalledPlugins {
  const at = Object.fromEntries(
    PLUGIN_STEPS.map((s) => [s, [] as MiddlewareHandler<GatewayEnv>[]]),
  ) as Record<PluginStep, MiddlewareHandler<GatewayEnv>[]>;
  let wrapped = backend;
  for (const p of plugins) {
    if (p.middleware) at.beforeTarget.push(p.middleware);
    p.install?.({
      add: (step, middleware) => {
        const slot = at[step];
        if (slot === undefined) throw new TypeError(`plugin '${p.name}': no pipeline step '${String(step)}'`);
        slot.push(middleware);
      },
      wrapBackend: (wrap) => {
        wrapped = wrap(wrapped);
      },
    });
  }
  return { at, backend: wrapped };
}
