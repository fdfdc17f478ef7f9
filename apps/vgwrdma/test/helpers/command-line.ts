// The command-line unit tests' way into parseCommandLine: the served config (or the backend of
// one kind) for an argv and an environment, and the message of the UsageError a bad one raises
// (checked to be the usage error: code VGW_ERR_USAGE, exit status 2). The environment is taken
// as given: spread ROOT_ENV into it where the test wants the root keys too.

import type { Env } from '@vgwrdma/cli-options';
import { UsageError } from '@vgwrdma/errors';
import { expect } from 'vitest';
import { type GatewayConfig, parseCommandLine } from '../../src/config.js';

/** Root keys that satisfy the required --access/--secret. */
export const ROOT_ENV = { ROOT_ACCESS_KEY_ID: 'ak', ROOT_SECRET_ACCESS_KEY: 'sk' } as const;

/** The config `vgwrdma <argv>` would serve with; fails when the command is help or version. */
export function serveConfig(argv: readonly string[], env: Env = ROOT_ENV): GatewayConfig {
  const command = parseCommandLine(argv, env, '/cwd');
  if (command.kind !== 'serve') throw new Error(`expected serve, got ${command.kind}`);
  return command.config;
}

type BackendKind = GatewayConfig['backend']['kind'];

/** The served config and its backend, which must be of `kind`. */
export function backendConfig<K extends BackendKind>(
  kind: K,
  argv: readonly string[],
  env: Env = ROOT_ENV,
): { config: GatewayConfig; backend: Extract<GatewayConfig['backend'], { kind: K }> } {
  const config = serveConfig(argv, env);
  expect(config.backend.kind).toBe(kind);
  return { config, backend: config.backend as Extract<GatewayConfig['backend'], { kind: K }> };
}

/** The message of the UsageError `vgwrdma <argv>` raises; fails when it parses. */
export function usageError(argv: readonly string[], env: Env = ROOT_ENV): string {
  try {
    parseCommandLine(argv, env, '/cwd');
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    expect(error).toMatchObject({ code: 'VGW_ERR_USAGE', exitCode: 2, name: 'UsageError' });
    return (error as UsageError).message;
  }
  throw new Error('expected a UsageError');
}
