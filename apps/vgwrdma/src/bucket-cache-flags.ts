// --bucket-cache-ttl: how long a gateway trusts its cached copy of a bucket's ACL, policy,
// ownership, public access block and CORS rules (gateway's BucketStateCache). A write through
// this gateway invalidates its copy at once; the TTL bounds how long a write through ANOTHER
// gateway on the same backend takes to be enforced here (docs/deployment.md). Spread into
// GLOBAL_FLAGS (flags.ts) like the --rdma-* rows.

import { option } from '@vgwrdma/cli-options';
import { z } from 'zod';

/** Seconds, fractions allowed, more than 0 and at most an hour; converted to milliseconds. */
const ttlSeconds = z
  .string()
  .regex(/^\d{1,4}(\.\d{1,3})?$/, 'must be a number of seconds such as 5 or 0.5')
  .transform((value) => Math.round(Number(value) * 1000))
  .refine((ms) => ms > 0, 'must be more than 0 seconds')
  .refine((ms) => ms <= 3_600_000, 'must be at most 3600 seconds');

export const BUCKET_CACHE_OPTIONS = {
  'bucket-cache-ttl': option(ttlSeconds, {
    env: ['VGW_BUCKET_CACHE_TTL'],
    default: '5',
    arg: 'SECONDS',
    help: "how long a bucket's cached ACL/policy/CORS is trusted: the most a change made through another gateway on the same backend takes to apply here",
  }),
};
