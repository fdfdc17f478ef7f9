// The gateway's observability surface: the per-request observation and its hook, the built-in
// access log.
export { ACCESS_LOG_MESSAGE, accessLogObserver } from './access-log-observer.js';
export { observeMiddleware } from './observe-middleware.js';
export type { RdmaObservation, RequestObservation, RequestObserver } from './request-observation.js';
