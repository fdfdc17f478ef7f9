// The gateway's built-in access log (GatewayOptions.accessLog): each request's observation as one
// info line with the message 'request'. Embedders wanting another format pass their own observer.
import type { Logger } from '../logger.js';
import type { RequestObserver } from './request-observation.js';

export const ACCESS_LOG_MESSAGE = 'request';

export function accessLogObserver(logger: Logger): RequestObserver {
  return (o) => logger.info(o, ACCESS_LOG_MESSAGE);
}
