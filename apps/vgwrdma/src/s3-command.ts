// The `s3` subcommand: `vgwrdma [global flags] s3 [s3 flags]` runs the gateway in front of an
// existing S3 store (AWS S3, Ceph RGW, MinIO, another gateway) through @vgwrdma/backend-s3. Its
// flags come from backend-s3's S3_BACKEND_OPTIONS (names and variables of versitygw's s3
// command); parsing into a typed config, --help text, banner rows and opening live here.

import type { Backend } from '@vgwrdma/backend-contract';
import {
  MetaBucketMissingError,
  S3_BACKEND_OPTIONS,
  S3Backend,
  type S3BackendOptions,
} from '@vgwrdma/backend-s3';
import { type Env, HELP_OPTION, optionLevel } from '@vgwrdma/cli-options';
import { UsageError } from '@vgwrdma/errors';

/** The s3 level: the proxy backend's own options (backend-s3) and -h. */
const S3_OPTIONS = { ...S3_BACKEND_OPTIONS.shape, ...HELP_OPTION };

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
  // Keys the operator left unset stay absent (zod adds no `undefined`s); -h is not an option.
  const { help: _help, ...options } = f;
  return { kind: 's3', options: options as S3BackendOptions };
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
