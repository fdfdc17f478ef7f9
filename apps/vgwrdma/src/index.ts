// vgwrdma as a library: the command-line parser and the run() entry point the bin calls, exported
// for tests and for wrappers (scripts/start.mjs reads DEFAULT_CREDENTIALS from here).

export type { CliOption as FlagSpec, Env } from '@vgwrdma/cli-options';
export { StartupError, UsageError } from '@vgwrdma/errors';
export { formatBanner } from './banner.js';
export type { Command, GatewayConfig, PosixBackendConfig } from './config.js';
export { parseCommandLine } from './config.js';
export { DEFAULT_CREDENTIALS, DEFAULT_PORT, START_ADDRESS } from './defaults.js';
export { exposureWarning, isLoopbackAddress, MIN_SECRET_LENGTH, WELL_KNOWN_SECRETS } from './exposure.js';
export { GLOBAL_FLAGS, POSIX_FLAGS } from './flags.js';
export type { ListenAddress } from './listen-address.js';
export { endpointUrl, parseListenAddress } from './listen-address.js';
export type { RunIO } from './run.js';
export { run } from './run.js';
export { VERSION } from './version.js';
