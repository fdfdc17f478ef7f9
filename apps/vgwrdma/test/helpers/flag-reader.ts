// flagReader: the one shape of the global-flag unit tests. `vgwrdma <flags> posix data` is parsed
// with the root keys in the environment (plus whatever the row adds): `read` gives the part of the
// served config under test, `refusal` the message of the UsageError a bad value raises (checked
// to be the usage error, exit status 2); the test files hold only their tables of rows.
import type { Env } from '@vgwrdma/cli-options';
import type { GatewayConfig } from '../../src/config.js';
import { ROOT_ENV, serveConfig, usageError } from './command-line.js';

/** The backend command every row ends with. */
const POSIX = ['posix', 'data'] as const;

/** A row of a "reads the flag and the environment" table: what `read(argv, env)` must equal. */
export interface FlagRow<T> {
  readonly argv: readonly string[];
  readonly env?: Env;
  readonly want: T;
}

export interface FlagReader<T> {
  /** The picked part of the config `vgwrdma <argv> posix data` serves with. */
  read(argv: readonly string[], env?: Env): T;
  /** The message of the UsageError `vgwrdma <argv> posix data` raises; fails when it parses. */
  refusal(argv: readonly string[], env?: Env): string;
}

export function flagReader<T>(pick: (config: GatewayConfig) => T): FlagReader<T> {
  return {
    read: (argv, env = {}) => pick(serveConfig([...argv, ...POSIX], { ...ROOT_ENV, ...env })),
    refusal: (argv, env = {}) => usageError([...argv, ...POSIX], { ...ROOT_ENV, ...env }),
  };
}
