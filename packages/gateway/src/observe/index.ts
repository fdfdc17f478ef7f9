// The gateway's observability surface: the per-request observation and its hook, the built-in
// access log, and the limits' counters.
export { ACCESS_LOG_MESSAGE, accessLogObserver } from './access-log-observer.js';
export { LimitCounters, type LimitStats } from './limit-stats.js';
export { observeMiddleware } from './observe-middleware.js';
export type { RdmaObservation, RequestObservation, RequestObserver } from './request-observation.js';
