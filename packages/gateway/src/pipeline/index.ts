// The request pipeline: fixed steps (steps.ts), each a hono middleware handing typed request
// variables (env.ts) to the next, with the plugins' middlewares at the named points between.
export { installPipeline } from './install-pipeline.js';
export type { PipelineOptions } from './pipeline-options.js';
export { PLUGIN_STEPS, type PluginStep } from './steps.js';
