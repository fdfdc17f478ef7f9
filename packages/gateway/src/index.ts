// @vgwrdma/gateway: the S3 HTTP API on hono. createGateway() builds the app over any Backend;
// listen() serves it. The auth API is re-exported for callers that configure credentials.

export type { AuthInput, AuthResult, Credential, CredentialStore } from './auth/index.js';
// authenticate: a listener of the app's own (the web console's stats) verifies SigV4 as the S3 port does.
export { authenticate, EMPTY_SHA256, staticCredentials } from './auth/index.js';
export type {
  AccessRequest,
  AuthorizerOptions,
  BucketState,
  BucketStateCacheOptions,
} from './authz/index.js';
export { Authorizer, BucketStateCache } from './authz/index.js';
export type { BucketPolicy, PolicyDecision, PolicyRequest } from './authz/policy/index.js';
export { evaluatePolicy, parseBucketPolicy } from './authz/policy/index.js';
export type { Gateway } from './create-gateway.js';
export { createGateway, DEFAULT_REGION, DEFAULT_SHUTDOWN_TIMEOUT_MS } from './create-gateway.js';
export type { BackendContextFields, GatewayEnv, GatewayVariables, ParsedTarget } from './env.js';
export type { DeliveryStats, EventAbout, EventNotificationOptions } from './events/index.js';
export { WEBHOOK_SIGNATURE_HEADER, webhookSignature } from './events/index.js';
export type { GatewayOptions } from './gateway-options.js';
export { GATEWAY_OPTIONS, type GatewaySettings, gatewaySettings } from './gateway-settings.js';
export type { ReadinessCheck, ReadinessReport } from './health/readiness.js';
export type {
  AccountCacheOptions,
  AccountStore,
  AccountsEdit,
  IamAccount,
  IamAccountUpdate,
  IamStoreOptions,
} from './iam/index.js';
export {
  AccountsDocumentStore,
  accountEdits,
  applyUpdate,
  CachedAccountStore,
  IamStore,
  isRole,
  parseUsersDocument,
  serializeUsers,
  USERS_FILE,
  UsersFileStore,
} from './iam/index.js';
export type { Logger } from './logger.js';
export type { RequestObservation, RequestObserver } from './observe/index.js';
export { ACCESS_LOG_MESSAGE, REDACTED, redactUrl } from './observe/index.js';
export { PLUGIN_STEPS, type PluginStep } from './pipeline/index.js';
export type { GatewayPlugin, GatewayStack, PluginObservation } from './plugins/index.js';
export { ROUTES } from './routes/table.js';
export type { Handler, RouteFlags, RouteRow, RouteTarget, S3Request, Subresource } from './routes/types.js';
export type { LimitStats } from './server/limit-stats.js';
export type { ListenOptions, RunningGateway, TlsCredentials } from './server/listen.js';
