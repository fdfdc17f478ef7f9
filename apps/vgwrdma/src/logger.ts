// The process loggers: pino on stderr — JSON lines, or pino-pretty's coloured lines when stderr
// is a terminal — so stdout carries only the banner and whatever a script wants to parse from it.
// Access-log lines (one per request, written by access-log.ts) go to --access-log FILE when given,
// whatever --quiet says, else to stderr unless --quiet; JSON lines carry the message 'request'.
// The file is created 0640, never through a symbolic link, and reopened on SIGHUP
// (access-log-file.ts).
import type { Logger as GatewayLogger } from '@vgwrdma/gateway';
import pino, { type DestinationStream, type Logger } from 'pino';
import pretty from 'pino-pretty';
import { AccessLogFile } from './access-log-file.js';

interface LogSettings {
  readonly debug: boolean;
  readonly quiet: boolean;
  readonly accessLog?: string;
  /** Human-readable lines (pino-pretty). Default: whether stderr is a terminal. */
  readonly pretty?: boolean;
}

/** The message of the one JSON access-log line per request. */
export const ACCESS_LOG_MESSAGE = 'request';

/** `--debug` shows per-request detail; `--quiet` keeps only warnings and errors. */
export function logLevel(settings: LogSettings): 'debug' | 'info' | 'warn' {
  if (settings.debug) return 'debug';
  return settings.quiet ? 'warn' : 'info';
}

/** Where access-log lines go: JSON objects through pino, or preformatted text lines (s3 format). */
export interface AccessSink {
  json(fields: object): void;
  line(text: string): void;
}

export interface Loggers {
  /** The application's own logger (stderr). */
  readonly logger: Logger;
  /** What the gateway gets: its warnings and errors, and any 'request' line routed like ours. */
  readonly gatewayLogger: GatewayLogger;
  /** Whether access-log lines are written at all. */
  readonly accessLog: boolean;
  readonly access: AccessSink;
  /** Opens --access-log FILE again (SIGHUP after rotation); throws when that fails. No file: no-op. */
  reopen(): void;
  flush(): void;
}

function stderrStream(prettyLines: boolean): DestinationStream {
  if (!prettyLines) return pino.destination({ dest: 2, sync: true });
  return pretty({ destination: 2, sync: true, colorize: true, translateTime: 'SYS:HH:MM:ss.l' });
}

export function createLoggers(settings: LogSettings): Loggers {
  const prettyLines = settings.pretty ?? process.stderr.isTTY === true;
  const logger = pino({ name: 'vgwrdma', level: logLevel(settings) }, stderrStream(prettyLines));
  if (settings.accessLog === undefined) {
    return {
      logger,
      gatewayLogger: logger,
      accessLog: !settings.quiet,
      access: {
        json: (fields) => logger.info(fields, ACCESS_LOG_MESSAGE),
        line: (text) => process.stderr.write(`${text}\n`),
      },
      reopen: () => {},
      flush: () => logger.flush(),
    };
  }
  const dest = new AccessLogFile(settings.accessLog, (error) =>
    logger.error({ file: settings.accessLog }, `access log write failed, lines dropped: ${error.message}`),
  );
  const file = pino({ name: 'vgwrdma-access', level: 'info' }, dest);
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
    access: {
      json: (fields) => file.info(fields, ACCESS_LOG_MESSAGE),
      line: (text) => dest.write(`${text}\n`),
    },
    reopen: () => dest.reopen(),
    flush: () => {
      logger.flush();
      file.flush();
    },
  };
}
