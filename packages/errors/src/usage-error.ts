// The two errors of the command lines (vgwrdma, its admin command, cuobjtest): a wrong command
// line (UsageError, printed with the usage hint) and a start-up failure meant for the operator
// (StartupError, printed as is). Both carry the exit status the program ends with.
import { VgwrdmaError } from './errors.js';

/** A command-line problem (code VGW_ERR_USAGE): exit status 2 unless the program says otherwise. */
export class UsageError extends VgwrdmaError<'VGW_ERR_USAGE'> {
  override readonly name = 'UsageError';
  constructor(
    message: string,
    readonly exitCode: 1 | 2 = 2,
  ) {
    super('VGW_ERR_USAGE', message);
  }
}

/** A start-up failure (code VGW_ERR_STARTUP) with a message meant for the operator: exit status 1. */
export class StartupError extends VgwrdmaError<'VGW_ERR_STARTUP'> {
  override readonly name = 'StartupError';
  readonly exitCode = 1;
  constructor(message: string, options?: { cause?: unknown }) {
    super('VGW_ERR_STARTUP', message, options);
  }
}
