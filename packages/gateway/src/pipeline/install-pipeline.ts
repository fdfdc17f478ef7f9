// Puts the pipeline's steps on a hono app in their fixed order (steps.ts), with the plugins'
// middlewares at the named points between them and the handler step last, for every path.
import type { Hono, MiddlewareHandler } from 'hono';
import type { GatewayEnv } from '../env.js';
import type { RouteRow } from '../routes/types.js';
import { authenticateStep } from './authenticate-step.js';
import { authorizeStep } from './authorize-step.js';
import { bodyStep } from './body-step.js';
import { handlerStep } from './handler-step.js';
import type { PipelineOptions } from './pipeline-options.js';
import { preflightStep } from './preflight-step.js';
import type { PluginStep } from './steps.js';
import { targetStep } from './target-step.js';

export function installPipeline(
  app: Hono<GatewayEnv>,
  rows: readonly RouteRow[],
  opts: PipelineOptions,
  at: Readonly<Record<PluginStep, readonly MiddlewareHandler<GatewayEnv>[]>>,
): void {
  const chain: MiddlewareHandler<GatewayEnv>[] = [
    ...at.beforeTarget,
    targetStep(rows, opts),
    ...at.afterTarget,
    preflightStep(opts),
    authenticateStep(opts),
    ...at.afterAuthenticate,
    authorizeStep(opts),
    ...at.afterAuthorize,
    bodyStep(opts),
    ...at.afterBody,
  ];
  for (const m of chain) app.use(m);
  app.all('*', handlerStep(opts));
}
