// The posix backend's ETag mode (docs/architecture.md, "ETag modes"): `md5` (the default, S3's
// ETag for a single PUT) or `parts`, which hashes a large body as fixed-size parts at once so a
// write is not bound by one core's MD5, and gives it S3's multipart-form ETag.

import { MIN_ETAG_PART_SIZE } from '@vgwrdma/backend-contract';
import { ByteSizeError, option, parseByteSize } from '@vgwrdma/cli-options';
import { z } from 'zod';

const MAX_PART = 5 * 1024 ** 3;

const partSize = z.string().transform((value, ctx) => {
  try {
    return parseByteSize(value, { min: MIN_ETAG_PART_SIZE, max: MAX_PART });
  } catch (error) {
    if (!(error instanceof ByteSizeError)) throw error;
    ctx.addIssue({ code: 'custom', message: error.message });
    return z.NEVER;
  }
});

export const ETAG_OPTIONS = {
  'etag-mode': option(z.enum(['md5', 'parts'], { message: "must be 'md5' or 'parts'" }), {
    env: ['VGW_ETAG_MODE'],
    default: 'md5',
    arg: 'MODE',
    help: "ETag of a single PUT: 'md5' (the whole body's MD5) or 'parts' (parts hashed at once; a body larger than --etag-part-size gets the multipart form '<md5>-<N>'; Content-MD5 still forces the MD5)",
  }),
  'etag-part-size': option(partSize, {
    env: ['VGW_ETAG_PART_SIZE'],
    default: '8MiB',
    arg: 'SIZE',
    help: "part size of the 'parts' ETag mode, 5MiB to 5GiB",
  }),
};
