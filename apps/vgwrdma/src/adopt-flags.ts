// --adopt-ownerless-buckets: at start-up, give every bucket that has no recorded owner (a
// directory an operator made in the posix root, a bucket created directly upstream or in Azure)
// to one named account. Without it such buckets stay nobody's: served to admin accounts only,
// and CreateBucket answers BucketAlreadyExists to everyone else (docs/security.md). Spread into
// GLOBAL_FLAGS (flags.ts) like the --bucket-cache-ttl row.

import { option } from '@vgwrdma/cli-options';
import { z } from 'zod';

export const ADOPT_OPTIONS = {
  'adopt-ownerless-buckets': option(z.string().min(1, 'must not be empty'), {
    env: ['VGW_ADOPT_OWNERLESS_BUCKETS'],
    arg: 'ACCESS',
    help: 'at start-up, make the account with access key ACCESS the owner of every bucket that has no recorded owner (otherwise such buckets are served to admins only, and CreateBucket on them answers BucketAlreadyExists)',
  }).optional(),
};
