export {
  checkPluginNames,
  type GatewayPlugin,
  type GatewayStack,
  type PluginObservation,
  pluginAdminHandlers,
  pluginSignedHeaderPrefixes,
  pluginStats,
} from './gateway-plugin.js';
export { type InstalledPlugins, installPlugins } from './install-plugins.js';
export { runShutdown, type ShutdownStep } from './ordered-shutdown.js';
