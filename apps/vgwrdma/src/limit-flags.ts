// Resource limits of the HTTP listener: versitygw's --max-connections / --max-requests (same
// names, aliases, environment variables and defaults), and vgwrdma's --body-idle-timeout and
// --shutdown-timeout (the drain at SIGTERM; 30 s like the systemd unit's TimeoutStopSec). Spread
// into the global options (flags.ts).

import { option } from '@vgwrdma/cli-options';
import { z } from 'zod';

/** A count where 0 means "no limit". */
const count = z
  .string()
  .regex(/^\d{1,9}$/, 'must be a whole number (0 = no limit)')
  .transform(Number);

/** Seconds, fractions allowed (0.5), at most a day; 0 = no limit. Converted to milliseconds. */
const seconds = z
  .string()
  .regex(/^\d{1,5}(\.\d{1,3})?$/, 'must be a number of seconds such as 60 or 0.5 (0 = no limit)')
  .transform((value) => Math.round(Number(value) * 1000))
  .refine((ms) => ms <= 86_400_000, 'must be at most 86400 seconds');

/** Seconds, fractions allowed, more than 0 and at most an hour (`example` in the message); in ms. */
export const hourSeconds = (example: string) =>
  z
    .string()
    .regex(/^\d{1,4}(\.\d{1,3})?$/, `must be a number of seconds such as ${example} or 0.5`)
    .transform((value) => Math.round(Number(value) * 1000))
    .refine((ms) => ms > 0, 'must be more than 0 seconds')
    .refine((ms) => ms <= 3_600_000, 'must be at most 3600 seconds');

export const LIMIT_OPTIONS = {
  'max-connections': option(count, {
    aliases: ['mc'],
    env: ['VGW_MAX_CONNECTIONS'],
    default: '250000',
    arg: 'N',
    help: 'maximum number of concurrent connections; beyond it new connections are closed at once (0 = no limit)',
  }),
  'max-requests': option(count, {
    aliases: ['mr'],
    env: ['VGW_MAX_REQUESTS'],
    default: '100000',
    arg: 'N',
    help: 'maximum number of in-flight S3 requests; beyond it requests get 503 SlowDown (the --health and --ready paths are exempt; 0 = no limit)',
  }),
  'body-idle-timeout': option(seconds, {
    env: ['VGW_BODY_IDLE_TIMEOUT'],
    default: '60',
    arg: 'SECONDS',
    help: 'a request body that sends nothing for this long fails with 400 RequestTimeout and its connection is closed (0 = no limit)',
  }),
  'shutdown-timeout': option(hourSeconds('30'), {
    env: ['VGW_SHUTDOWN_TIMEOUT'],
    default: '30',
    arg: 'SECONDS',
    help: "at SIGTERM/SIGINT, how long in-flight requests may finish; those still running are then cut (logged with status 499, their temp files removed). Keep it below systemd's TimeoutStopSec / Docker's --stop-timeout",
  }),
};
