// The observability flags: --metrics-port (the Prometheus listener, its own address, loopback
// unless the operator names another interface) and --access-log-format (json or AWS's server
// access log format). Spread into the global options (flags.ts).

import { option } from '@vgwrdma/cli-options';
import { z } from 'zod';
import { type ListenAddress, parseListenAddress } from './listen-address.js';

/**
 * `PORT` alone binds 127.0.0.1 (metrics stay off the network unless asked); `HOST:PORT`,
 * `[IPv6]:PORT` and `:PORT` (every interface) are the --port forms.
 */
const metricsAddress = z.string().transform((value, ctx): ListenAddress => {
  const parsed = parseListenAddress(/^\d{1,5}$/.test(value.trim()) ? `127.0.0.1:${value.trim()}` : value);
  if (typeof parsed === 'string') {
    ctx.addIssue({ code: 'custom', message: `${parsed} (or a bare port for 127.0.0.1)` });
    return z.NEVER;
  }
  if (parsed.socketPath !== undefined) {
    ctx.addIssue({ code: 'custom', message: 'the metrics listener takes a TCP address, not a unix socket' });
    return z.NEVER;
  }
  return parsed;
});

export const ACCESS_LOG_FORMATS = ['json', 's3'] as const;
export type AccessLogFormat = (typeof ACCESS_LOG_FORMATS)[number];

export const OBSERVABILITY_OPTIONS = {
  'metrics-port': option(metricsAddress, {
    env: ['VGW_METRICS_PORT'],
    arg: 'ADDR',
    help: 'serve Prometheus metrics at http://ADDR/metrics on a listener of their own (a bare port binds 127.0.0.1; never the S3 port)',
  }).optional(),
  'metrics-per-bucket': option(z.boolean(), {
    env: ['VGW_METRICS_PER_BUCKET'],
    default: false,
    help: 'add request and byte counters with a bucket label (one series per bucket: mind the cardinality)',
  }),
  'access-log-format': option(z.enum(ACCESS_LOG_FORMATS, { message: "must be 'json' or 's3'" }), {
    env: ['VGW_ACCESS_LOG_FORMAT'],
    default: 'json',
    arg: 'FORMAT',
    help: "access log lines: 'json' (one object per request) or 's3' (AWS's server access log format)",
  }),
};
