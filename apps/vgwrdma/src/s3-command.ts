// The `s3` subcommand: `vgwrdma [global flags] s3 [s3 flags]` runs the gateway in front of an
// existing S3 store (AWS S3, Ceph RGW, MinIO, another gateway) through @vgwrdma/backend-s3. Its
// flag table, parsing into a typed config, --help text, banner rows and opening live here. Flag
// names and environment variables follow versitygw (cmd/versitygw/s3.go).

import type { Backend } from '@vgwrdma/backend-contract';
import {
  DEFAULT_SPOOL_MEMORY,
  DEFAULT_UPLOAD_PART_SIZE,
  MAX_UPLOAD_PART_SIZE,
  MetaBucketMissingError,
  MIN_UPLOAD_PART_SIZE,
  S3Backend,
  type S3BackendOptions,
} from '@vgwrdma/backend-s3';
import {
  ByteSizeError,
  type Env,
  HELP_OPTION,
  nonEmpty,
  option,
  optionLevel,
  parseByteSize,
} from '@vgwrdma/cli-options';
import { UsageError } from '@vgwrdma/errors';
import { z } from 'zod';

const boolFlag = z.boolean();
/** Bytes in parseByteSize's forms (16MiB, 1048576, ...) within [min, max]. */
const bytesIn = (min: number, max: number) =>
  z.string().transform((value, ctx) => {
    try {
      const n = parseByteSize(value, { min });
      if (n <= max) return n;
      ctx.addIssue({ code: 'custom', message: `must be at most ${max} bytes` });
    } catch (error) {
      if (!(error instanceof ByteSizeError)) throw error;
      ctx.addIssue({ code: 'custom', message: error.message });
    }
    return z.NEVER;
  });
const endpoint = z.url({
  protocol: /^https?$/,
  error: 'must be an http:// or https:// URL',
});

const S3_OPTIONS = {
  access: option(nonEmpty, {
    short: 'a',
    env: ['VGW_S3_ACCESS_KEY'],
    arg: 'KEY',
    help: 'upstream access key id (the AWS default credential chain when not given)',
  }).optional(),
  secret: option(nonEmpty, {
    short: 's',
    env: ['VGW_S3_SECRET_KEY'],
    arg: 'SECRET',
    help: 'upstream secret access key',
  }).optional(),
  endpoint: option(endpoint, {
    env: ['VGW_S3_ENDPOINT'],
    arg: 'URL',
    help: 'upstream s3 service endpoint, AWS S3 if not given',
  }).optional(),
  region: option(z.string().regex(/^[a-z0-9-]+$/, 'must be a region name such as us-east-1'), {
    env: ['VGW_S3_REGION'],
    default: 'us-east-1',
    arg: 'REGION',
    help: 'upstream s3 service region',
  }),
  'meta-bucket': option(nonEmpty, {
    env: ['VGW_S3_META_BUCKET'],
    arg: 'BUCKET',
    help: 'existing upstream bucket where the gateway keeps bucket ACLs, policies, CORS and website configurations (hidden from clients)',
  }).optional(),
  'anonymous-credentials': option(boolFlag, {
    aliases: ['anonymous'],
    env: ['VGW_S3_ANONYMOUS_CREDENTIALS'],
    default: false,
    help: 'send unsigned upstream requests instead of using credentials',
  }),
  'disable-checksum': option(boolFlag, {
    env: ['VGW_S3_DISABLE_CHECKSUM'],
    default: false,
    help: 'send no flexible checksums upstream (client checksums are still verified)',
  }),
  'ssl-skip-verify': option(boolFlag, {
    env: ['VGW_S3_SSL_SKIP_VERIFY'],
    default: false,
    help: 'skip TLS certificate verification of the upstream',
  }),
  'use-path-style': option(boolFlag, {
    env: ['VGW_S3_USE_PATH_STYLE'],
    default: false,
    help: 'use path-style addressing upstream (endpoint/bucket/key)',
  }),
  'upload-part-size': option(bytesIn(MIN_UPLOAD_PART_SIZE, MAX_UPLOAD_PART_SIZE), {
    env: ['VGW_S3_UPLOAD_PART_SIZE'],
    default: `${DEFAULT_UPLOAD_PART_SIZE / 1024 ** 2}MiB`,
    arg: 'BYTES',
    help: 'bodies of unknown length (chunked, POST forms): up to this size spooled and sent as one PutObject, above it a multipart upload upstream in parts of this size (5MiB..5GiB)',
  }),
  'spool-memory': option(bytesIn(0, MAX_UPLOAD_PART_SIZE), {
    env: ['VGW_S3_SPOOL_MEMORY'],
    default: `${DEFAULT_SPOOL_MEMORY / 1024 ** 2}MiB`,
    arg: 'BYTES',
    help: 'bytes of one spooled body (or part) kept in memory before the rest goes to a temp file',
  }),
  'spool-dir': option(nonEmpty, {
    env: ['VGW_S3_SPOOL_DIR'],
    arg: 'DIR',
    help: 'directory of the spool temp files (unlinked as soon as opened) [default: the OS temp directory]',
  }).optional(),
  ...HELP_OPTION,
};

const S3_LEVEL = optionLevel(S3_OPTIONS);
export const S3_FLAGS = S3_LEVEL.flags;

export interface S3BackendConfig {
  readonly kind: 's3';
  readonly options: S3BackendOptions;
}

/** The s3 backend's config from its parsed flags (help already handled by the caller). */
export function s3BackendConfig(
  values: Readonly<Record<string, string | boolean | undefined>>,
  positionals: readonly string[],
  env: Env,
): S3BackendConfig {
  if (positionals.length > 0) {
    throw new UsageError(`unexpected argument(s) for the s3 backend: ${positionals.join(' ')}`);
  }
  const f = S3_LEVEL.resolve(values, env);
  if ((f.access === undefined) !== (f.secret === undefined)) {
    throw new UsageError(
      'give both --access and --secret for the upstream, or neither (default credential chain)',
    );
  }
  const options: S3BackendOptions = {
    region: f.region,
    anonymous: f['anonymous-credentials'],
    disableChecksum: f['disable-checksum'],
    sslSkipVerify: f['ssl-skip-verify'],
    usePathStyle: f['use-path-style'],
    uploadPartSize: f['upload-part-size'],
    spoolMemory: f['spool-memory'],
    ...(f['spool-dir'] === undefined ? {} : { spoolDir: f['spool-dir'] }),
    ...(f.endpoint === undefined ? {} : { endpoint: f.endpoint }),
    ...(f.access === undefined || f.secret === undefined ? {} : { access: f.access, secret: f.secret }),
    ...(f['meta-bucket'] === undefined ? {} : { metaBucket: f['meta-bucket'] }),
  };
  return { kind: 's3', options };
}

/** Banner rows describing the upstream (never its secret). */
export function s3BannerRows(config: S3BackendConfig): [string, string][] {
  const o = config.options;
  const credentials = o.anonymous
    ? 'anonymous'
    : o.access !== undefined
      ? `key ${o.access}`
      : 'default chain';
  return [
    ['backend', `s3 (${credentials}${o.usePathStyle ? ', path-style' : ''})`],
    ['upstream', `${o.endpoint ?? 'AWS S3'} (${o.region ?? 'us-east-1'})`],
    ['meta bucket', o.metaBucket ?? 'none (bucket ownership not tracked)'],
  ];
}

/** Opens the proxy backend; a missing meta bucket is an operator error, not a crash. */
export async function openS3Backend(
  config: S3BackendConfig,
  startupError: (message: string, cause: unknown) => Error,
): Promise<Backend> {
  try {
    return await S3Backend.open(config.options);
  } catch (error) {
    if (error instanceof MetaBucketMissingError) {
      throw startupError(
        `the meta bucket "${error.bucket}" does not exist at ${config.options.endpoint ?? 'AWS S3'} (or cannot ` +
          'be reached with the upstream credentials): create it first, or start without --meta-bucket',
        error,
      );
    }
    throw error;
  }
}

export function s3Usage(): string {
  return `vgwrdma s3 - proxy to an existing S3 store (AWS S3, Ceph RGW, MinIO, another gateway)

Usage:
  vgwrdma [global flags] s3 [s3 flags]

Every request is forwarded to the upstream store; bodies stream through, multipart uploads pass
through, and errors come back as the same S3 errors. --access/--secret here are the UPSTREAM
keys (the gateway's own root user is given by the global flags). With --meta-bucket, bucket
ACLs (owners), policies, CORS and website configurations are kept in that upstream bucket, as
versitygw does; without it, bucket ownership is not tracked.

S3 flags:
${S3_LEVEL.help()}
`;
}
