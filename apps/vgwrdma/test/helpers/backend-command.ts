// backendCommand: the unit tests of one backend subcommand (`vgwrdma [global flags] <kind> ...`)
// read its command line three ways: the served config and its backend (checked to be of that
// kind), the message of the UsageError a bad one raises, and the start-up banner the served config
// prints. The environment defaults to the root keys (ROOT_ENV); a test passes its own to add to it.
import type { Env } from '@vgwrdma/cli-options';
import { expect } from 'vitest';
import { formatBanner } from '../../src/banner.js';
import type { GatewayConfig } from '../../src/config.js';
import { backendConfig, ROOT_ENV, usageError } from './command-line.js';

type BackendKind = GatewayConfig['backend']['kind'];

/** The gateway's root keys given as global flags, before the subcommand (whose own -a/-s differ). */
export const ROOT_FLAGS = ['-a', 'root-a', '-s', 'root-s'] as const;

/** The banner's listener in these tests. */
const LISTEN = { host: '127.0.0.1', port: 7070 } as const;

export function backendCommand<K extends BackendKind>(kind: K) {
  return {
    /** The served config and its backend, which must be of `kind`. */
    config: (argv: readonly string[], env: Env = ROOT_ENV) => backendConfig(kind, argv, env),
    /**
     * `vgwrdma <ROOT_FLAGS> <kind> ...argv`: checks that the root keys stay the global flags'
     * (the subcommand's own -a/-s are its backend's) and returns the config and the backend.
     */
    afterRootFlags: (argv: readonly string[]) => {
      const read = backendConfig(kind, [...ROOT_FLAGS, kind, ...argv], ROOT_ENV);
      expect([read.config.access, read.config.secret]).toEqual(['root-a', 'root-s']);
      return read;
    },
    /** The UsageError's message; fails when the command line parses. */
    refusal: (argv: readonly string[], env: Env = ROOT_ENV) => usageError(argv, env),
    /** The banner of the served config. */
    banner: (argv: readonly string[], env: Env = ROOT_ENV) =>
      formatBanner({ config: backendConfig(kind, argv, env).config, ...LISTEN }),
  };
}
