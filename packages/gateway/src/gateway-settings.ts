// The plain-value settings of createGateway(), declared once: each field's type and range, and, for
// those an operator sets, the command-line flag, environment variables, default and help text
// (metadata of @vgwrdma/cli-options). vgwrdma derives its gateway flags from this schema, and
// createGateway() checks an embedder's object with it once (gatewaySettings), so a bad value is an
// InvalidArgumentError naming the field before anything listens. The objects createGateway() also
// takes (backend, credentials, plugins, observers, logger ...) are GatewayOptions' (gateway-options.ts).
//
// A field reads what a program passes (a number of milliseconds or bytes, a boolean) and what an
// operator types (the text of a flag or environment variable, in the flag's unit: seconds for the
// timeouts), each by its own rule and with its own messages.
import { checkOptions, option } from '@vgwrdma/cli-options';
import { z } from 'zod';
import type { BucketStateCacheOptions } from './authz/index.js';
import { S3_MAX_COPY_SOURCE, S3_MAX_PARTS } from './routes/request-limits.js';

/** `text` for a string (argv, environment), `value` for anything else (a program's value). */
function textOr<T>(text: z.ZodType<T, string>, value: z.ZodType<T>) {
  return z.unknown().transform((input, ctx): T => {
    const result = typeof input === 'string' ? text.safeParse(input) : value.safeParse(input);
    if (result.success) return result.data;
    for (const issue of result.error.issues)
      ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path });
    return z.NEVER;
  });
}

/** A whole number in min..max, for a program's value. */
const whole = (min: number, max: number, message: string) =>
  z.number({ error: message }).int(message).min(min, message).max(max, message);

/** A count where 0 means "no limit". */
const count = textOr(
  z
    .string()
    .regex(/^\d{1,9}$/, 'must be a whole number (0 = no limit)')
    .transform(Number),
  whole(0, 999_999_999, 'must be a whole number (0 = no limit)'),
);

/** Seconds as text, fractions allowed (0.5), at most a day; 0 = no limit. In milliseconds. */
const dayMs = textOr(
  z
    .string()
    .regex(/^\d{1,5}(\.\d{1,3})?$/, 'must be a number of seconds such as 60 or 0.5 (0 = no limit)')
    .transform((value) => Math.round(Number(value) * 1000))
    .refine((ms) => ms <= 86_400_000, 'must be at most 86400 seconds'),
  whole(0, 86_400_000, 'must be a whole number of milliseconds, at most 86400000 (0 = no limit)'),
);

/** Seconds as text, fractions allowed, more than 0 and at most an hour (`example` in the message); in ms. A program may give 0 (no grace). */
const hourSecondsText = (example: string) =>
  z
    .string()
    .regex(/^\d{1,4}(\.\d{1,3})?$/, `must be a number of seconds such as ${example} or 0.5`)
    .transform((value) => Math.round(Number(value) * 1000))
    .refine((ms) => ms > 0, 'must be more than 0 seconds')
    .refine((ms) => ms <= 3_600_000, 'must be at most 3600 seconds');
const hourMs = (example: string) =>
  textOr(
    hourSecondsText(example),
    whole(0, 3_600_000, 'must be a whole number of milliseconds, at most 3600000'),
  );

const maxParts = textOr(
  z
    .string()
    .regex(/^\d{1,5}$/, `must be a whole number from 1 to ${S3_MAX_PARTS}`)
    .transform(Number)
    .refine((n) => n >= 1 && n <= S3_MAX_PARTS, `must be from 1 to ${S3_MAX_PARTS} (S3's own limit)`),
  whole(1, S3_MAX_PARTS, `must be from 1 to ${S3_MAX_PARTS} (S3's own limit)`),
);

const copyBytes = textOr(
  z
    .string()
    .regex(/^\d{1,11}$/, 'must be a whole number of bytes')
    .transform(Number)
    .refine(
      (n) => n >= 1 && n <= S3_MAX_COPY_SOURCE,
      `must be from 1 to ${S3_MAX_COPY_SOURCE} (5 GiB, S3's own limit)`,
    ),
  whole(1, S3_MAX_COPY_SOURCE, `must be from 1 to ${S3_MAX_COPY_SOURCE} (5 GiB, S3's own limit)`),
);

/** The bucket-state cache: its TTL as text (seconds, --bucket-cache-ttl), or a program's bounds. */
const bucketStateCache = textOr<BucketStateCacheOptions>(
  hourSecondsText('5').transform((ttlMs) => ({ ttlMs })),
  z
    .strictObject({
      maxEntries: whole(1, 1 << 30, 'must be a whole number of buckets, at least 1').optional(),
      ttlMs: whole(
        0,
        86_400_000,
        'must be a whole number of milliseconds (0 = until invalidated)',
      ).optional(),
    })
    // zod leaves absent keys absent: no explicit undefined reaches the cache.
    .transform((bounds) => bounds as BucketStateCacheOptions),
);

const path = z.string().regex(/^\/\S*$/, "must be a path starting with '/', e.g. /health");

/** `*`, or an origin: scheme://host[:port], no path. */
const origin = z
  .string()
  .regex(/^(\*|https?:\/\/[^\s/,]+)$/, 'must be * or an origin such as https://app.example.com');

/** createGateway()'s plain-value settings; the flagged ones carry vgwrdma's flag metadata. */
export const GATEWAY_OPTIONS = z.object({
  region: option(z.string().regex(/^[a-z0-9-]+$/, 'must be a region name such as us-east-1'), {
    short: 'r',
    env: ['VGW_REGION'],
    default: 'us-east-1',
    arg: 'REGION',
    help: 's3 region string',
  }).optional(),
  healthPath: option(path, {
    flag: 'health',
    env: ['VGW_HEALTH'],
    arg: 'PATH',
    help: "liveness endpoint path, answered 200 on GET while the process serves (must start with '/', e.g. /health)",
  }).optional(),
  readyPath: option(path, {
    flag: 'ready',
    env: ['VGW_READY'],
    arg: 'PATH',
    help: 'readiness endpoint path: 200 when the backend answers a probe (and, with RDMA, the pool and RDMA server are up), 503 otherwise (e.g. /ready)',
  }).optional(),
  readonly: option(z.boolean(), {
    env: ['VGW_READ_ONLY'],
    default: false,
    help: 'allow only read operations across all the gateway',
  }).optional(),
  virtualHostDomain: option(
    z.string().regex(/^[a-z0-9.-]+(:\d+)?$/i, 'must be a domain such as s3.example.com'),
    {
      flag: 'virtual-domain',
      aliases: ['vd'],
      env: ['VGW_VIRTUAL_DOMAIN'],
      arg: 'DOMAIN',
      help: 'also accept virtual-host style requests (<bucket>.DOMAIN); path style always works',
    },
  ).optional(),
  disableAcl: option(z.boolean(), {
    flag: 'disable-acl',
    aliases: ['noacl'],
    env: ['VGW_DISABLE_ACL'],
    default: false,
    help: 'disable bucket ACLs: ACL headers are ignored and Put*Acl is refused',
  }).optional(),
  multipartMaxParts: option(maxParts, {
    flag: 'mp-max-parts',
    env: ['VGW_MP_MAX_PARTS'],
    default: String(S3_MAX_PARTS),
    arg: 'N',
    help: 'highest part number of a multipart upload (UploadPart beyond it: 400 InvalidArgument)',
  }).optional(),
  copyObjectThreshold: option(copyBytes, {
    flag: 'copy-object-threshold',
    env: ['VGW_COPY_OBJECT_THRESHOLD'],
    default: String(S3_MAX_COPY_SOURCE),
    arg: 'BYTES',
    help: 'largest source a CopyObject may copy, in bytes (larger: 400 InvalidRequest)',
  }).optional(),
  corsAllowOrigin: option(origin, {
    flag: 'cors-allow-origin',
    env: ['VGW_CORS_ALLOW_ORIGIN'],
    arg: 'ORIGIN',
    help: 'default CORS Access-Control-Allow-Origin (* or an origin) for buckets without a CORS configuration and for admin requests',
  }).optional(),
  maxConnections: option(count, {
    flag: 'max-connections',
    aliases: ['mc'],
    env: ['VGW_MAX_CONNECTIONS'],
    default: '250000',
    arg: 'N',
    help: 'maximum number of concurrent connections; beyond it new connections are closed at once (0 = no limit)',
  }).optional(),
  maxRequests: option(count, {
    flag: 'max-requests',
    aliases: ['mr'],
    env: ['VGW_MAX_REQUESTS'],
    default: '100000',
    arg: 'N',
    help: 'maximum number of in-flight S3 requests; beyond it requests get 503 SlowDown (the --health and --ready paths are exempt; 0 = no limit)',
  }).optional(),
  bodyIdleTimeoutMs: option(dayMs, {
    flag: 'body-idle-timeout',
    env: ['VGW_BODY_IDLE_TIMEOUT'],
    default: '60',
    arg: 'SECONDS',
    help: 'a request body that sends nothing for this long fails with 400 RequestTimeout and its connection is closed (0 = no limit)',
  }).optional(),
  shutdownTimeoutMs: option(hourMs('30'), {
    flag: 'shutdown-timeout',
    env: ['VGW_SHUTDOWN_TIMEOUT'],
    default: '30',
    arg: 'SECONDS',
    help: "at SIGTERM/SIGINT, how long in-flight requests may finish; those still running are then cut (logged with status 499, their temp files removed). Keep it below systemd's TimeoutStopSec / Docker's --stop-timeout",
  }).optional(),
  // How long a gateway trusts its cached copy of a bucket's ACL, policy, ownership, public access
  // block and CORS rules. A write through this gateway invalidates its copy at once; the TTL
  // bounds how long a write through ANOTHER gateway on the same backend takes to be enforced
  // here (docs/deployment.md).
  bucketStateCache: option(bucketStateCache, {
    flag: 'bucket-cache-ttl',
    env: ['VGW_BUCKET_CACHE_TTL'],
    default: '5',
    arg: 'SECONDS',
    help: "how long a bucket's cached ACL/policy/CORS is trusted: the most a change made through another gateway on the same backend takes to apply here",
  }).optional(),
  // Programs only (no flag).
  anonymousAccess: z.boolean().optional(),
  accessLog: z.boolean().optional(),
  maxClockSkewMs: whole(0, 604_800_000, 'must be a whole number of milliseconds').optional(),
  requestTimeoutMs: whole(0, 86_400_000, 'must be a whole number of milliseconds (0 = none)').optional(),
  consoleOrigins: z.array(z.string().min(1, 'must not be empty')).readonly().optional(),
});

/** The validated settings: what GATEWAY_OPTIONS makes of an embedder's object. */
export type GatewaySettings = z.output<typeof GATEWAY_OPTIONS>;

/**
 * Checks the plain-value fields of createGateway()'s options (other fields are left to
 * GatewayOptions' types); throws an InvalidArgumentError (VGW_ERR_INVALID_ARGUMENT) naming each bad field.
 */
export function gatewaySettings(input: object): GatewaySettings {
  // Absent and explicitly undefined fields alike mean "the default".
  const defined = Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined));
  return checkOptions(GATEWAY_OPTIONS, defined, 'createGateway');
}
