export { checkPluginNames, type GatewayPlugin, pluginAdminHandlers, pluginStats } from './gateway-plugin.js';
export { runShutdown, type ShutdownStep } from './ordered-shutdown.js';
