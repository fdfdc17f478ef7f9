// The process logger: pino writing JSON lines to stderr, so stdout carries only the banner and
// whatever a script wants to parse from it.
import pino, { type Logger } from 'pino';

export interface LogSettings {
  readonly debug: boolean;
  readonly quiet: boolean;
}

/** `--debug` shows per-request detail; `--quiet` keeps only warnings and errors. */
export function logLevel(settings: LogSettings): 'debug' | 'info' | 'warn' {
  if (settings.debug) return 'debug';
  return settings.quiet ? 'warn' : 'info';
}

export function createLogger(settings: LogSettings): Logger {
  return pino(
    { name: 'vgwrdma', level: logLevel(settings) },
    pino.destination({ dest: 2, sync: true }),
  );
}
