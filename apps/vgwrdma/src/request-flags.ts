// Gateway-wide request settings from versitygw's flag set: --mp-max-parts (highest part number
// of a multipart upload), --copy-object-threshold (largest CopyObject source) and
// --cors-allow-origin (the CORS answer of buckets without a configuration). Same names,
// environment variables and defaults. Spread into the global options (flags.ts).

import { option } from '@vgwrdma/cli-options';
import { z } from 'zod';

const S3_MAX_PARTS = 10_000;
const S3_MAX_COPY = 5 * 1024 ** 3;

const maxParts = z
  .string()
  .regex(/^\d{1,5}$/, `must be a whole number from 1 to ${S3_MAX_PARTS}`)
  .transform(Number)
  .refine((n) => n >= 1 && n <= S3_MAX_PARTS, `must be from 1 to ${S3_MAX_PARTS} (S3's own limit)`);

const bytes = z
  .string()
  .regex(/^\d{1,11}$/, 'must be a whole number of bytes')
  .transform(Number)
  .refine((n) => n >= 1 && n <= S3_MAX_COPY, `must be from 1 to ${S3_MAX_COPY} (5 GiB, S3's own limit)`);

/** `*`, or an origin: scheme://host[:port], no path. */
const origin = z
  .string()
  .regex(/^(\*|https?:\/\/[^\s/,]+)$/, 'must be * or an origin such as https://app.example.com');

export const REQUEST_OPTIONS = {
  'mp-max-parts': option(maxParts, {
    env: ['VGW_MP_MAX_PARTS'],
    default: String(S3_MAX_PARTS),
    arg: 'N',
    help: 'highest part number of a multipart upload (UploadPart beyond it: 400 InvalidArgument)',
  }),
  'copy-object-threshold': option(bytes, {
    env: ['VGW_COPY_OBJECT_THRESHOLD'],
    default: String(S3_MAX_COPY),
    arg: 'BYTES',
    help: 'largest source a CopyObject may copy, in bytes (larger: 400 InvalidRequest)',
  }),
  'cors-allow-origin': option(origin, {
    env: ['VGW_CORS_ALLOW_ORIGIN'],
    arg: 'ORIGIN',
    help: 'default CORS Access-Control-Allow-Origin (* or an origin) for buckets without a CORS configuration and for admin requests',
  }).optional(),
};
