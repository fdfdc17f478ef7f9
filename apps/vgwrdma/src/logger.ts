// The process loggers: pino writing JSON lines to stderr, so stdout carries only the banner and
// whatever a script wants to parse from it. With --access-log FILE, the gateway's per-request
// lines (its access-log middleware logs them at info with the message 'request') go to FILE
// instead, whatever --quiet says; the rest stays on stderr.
import type { Logger as GatewayLogger } from '@vgwrdma/gateway';
import pino, { type Logger } from 'pino';

interface LogSettings {
  readonly debug: boolean;
  readonly quiet: boolean;
  readonly accessLog?: string;
}

/** The message the gateway's access-log middleware uses for its one line per request. */
export const ACCESS_LOG_MESSAGE = 'request';

/** `--debug` shows per-request detail; `--quiet` keeps only warnings and errors. */
export function logLevel(settings: LogSettings): 'debug' | 'info' | 'warn' {
  if (settings.debug) return 'debug';
  return settings.quiet ? 'warn' : 'info';
}

interface Loggers {
  /** The application's own logger (stderr). */
  readonly logger: Logger;
  /** What the gateway gets: routes access-log lines to the file when there is one. */
  readonly gatewayLogger: GatewayLogger;
  /** Whether the gateway should write access-log lines at all. */
  readonly accessLog: boolean;
  flush(): void;
}

export function createLoggers(settings: LogSettings): Loggers {
  const logger = pino(
    { name: 'vgwrdma', level: logLevel(settings) },
    pino.destination({ dest: 2, sync: true }),
  );
  if (settings.accessLog === undefined) {
    return { logger, gatewayLogger: logger, accessLog: !settings.quiet, flush: () => logger.flush() };
  }
  const file = pino(
    { name: 'vgwrdma-access', level: 'info' },
    pino.destination({ dest: settings.accessLog, sync: true, mkdir: true }),
  );
  const gatewayLogger: GatewayLogger = {
    info: (obj, msg) => (msg === ACCESS_LOG_MESSAGE ? file.info(obj, msg) : logger.info(obj, msg)),
    warn: (obj, msg) => logger.warn(obj, msg),
    error: (obj, msg) => logger.error(obj, msg),
    debug: (obj, msg) => logger.debug(obj, msg),
  };
  return {
    logger,
    gatewayLogger,
    accessLog: true,
    flush: () => {
      logger.flush();
      file.flush();
    },
  };
}
