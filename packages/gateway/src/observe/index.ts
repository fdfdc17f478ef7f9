// The gateway's observability surface: the per-request observation and its hook, the built-in
// access log, and the redaction every logged URL goes through.
export { ACCESS_LOG_MESSAGE, accessLogObserver } from './access-log-observer.js';
export { observeMiddleware } from './observe-middleware.js';
export { REDACTED, redactUrl } from './redact-url.js';
export type { RequestObservation, RequestObserver } from './request-observation.js';
