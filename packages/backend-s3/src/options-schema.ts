// The proxy backend's operator settings, declared once: each S3BackendOptions field an operator
// sets, with its command-line flag, environment variables, default and help text (metadata of
// @vgwrdma/cli-options). Names and variables follow versitygw's `s3` command
// (cmd/versitygw/s3.go). vgwrdma derives its `s3` level's flags, environment fallback and --help
// from this schema; the validated object is an S3BackendOptions.
import { ByteSizeError, nonEmpty, option, parseByteSize } from '@vgwrdma/cli-options';
import { z } from 'zod';
import {
  DEFAULT_SPOOL_MEMORY,
  DEFAULT_UPLOAD_PART_SIZE,
  MAX_UPLOAD_PART_SIZE,
  MIN_UPLOAD_PART_SIZE,
} from './options.js';

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

export const S3_BACKEND_OPTIONS = z.object({
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
  metaBucket: option(nonEmpty, {
    flag: 'meta-bucket',
    env: ['VGW_S3_META_BUCKET'],
    arg: 'BUCKET',
    help: 'existing upstream bucket where the gateway keeps bucket ACLs, policies, CORS and website configurations (hidden from clients)',
  }).optional(),
  anonymous: option(z.boolean(), {
    flag: 'anonymous-credentials',
    aliases: ['anonymous'],
    env: ['VGW_S3_ANONYMOUS_CREDENTIALS'],
    default: false,
    help: 'send unsigned upstream requests instead of using credentials',
  }),
  disableChecksum: option(z.boolean(), {
    flag: 'disable-checksum',
    env: ['VGW_S3_DISABLE_CHECKSUM'],
    default: false,
    help: 'send no flexible checksums upstream (client checksums are still verified)',
  }),
  sslSkipVerify: option(z.boolean(), {
    flag: 'ssl-skip-verify',
    env: ['VGW_S3_SSL_SKIP_VERIFY'],
    default: false,
    help: 'skip TLS certificate verification of the upstream',
  }),
  usePathStyle: option(z.boolean(), {
    flag: 'use-path-style',
    env: ['VGW_S3_USE_PATH_STYLE'],
    default: false,
    help: 'use path-style addressing upstream (endpoint/bucket/key)',
  }),
  uploadPartSize: option(bytesIn(MIN_UPLOAD_PART_SIZE, MAX_UPLOAD_PART_SIZE), {
    flag: 'upload-part-size',
    env: ['VGW_S3_UPLOAD_PART_SIZE'],
    default: `${DEFAULT_UPLOAD_PART_SIZE / 1024 ** 2}MiB`,
    arg: 'BYTES',
    help: 'bodies of unknown length (chunked, POST forms): up to this size spooled and sent as one PutObject, above it a multipart upload upstream in parts of this size (5MiB..5GiB)',
  }),
  spoolMemory: option(bytesIn(0, MAX_UPLOAD_PART_SIZE), {
    flag: 'spool-memory',
    env: ['VGW_S3_SPOOL_MEMORY'],
    default: `${DEFAULT_SPOOL_MEMORY / 1024 ** 2}MiB`,
    arg: 'BYTES',
    help: 'bytes of one spooled body (or part) kept in memory before the rest goes to a temp file',
  }),
  spoolDir: option(nonEmpty, {
    flag: 'spool-dir',
    env: ['VGW_S3_SPOOL_DIR'],
    arg: 'DIR',
    help: 'directory of the spool temp files (unlinked as soon as opened) [default: the OS temp directory]',
  }).optional(),
});
