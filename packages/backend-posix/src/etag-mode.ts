// The parts ETag mode's one parameter, checked when the backend opens: a part size S3 would
// accept for a multipart upload's parts (5 MiB to 5 GiB), so the multipart-form ETag it yields is
// one every S3 client already knows how to read.
import { type EtagMode, MIN_ETAG_PART_SIZE } from '@vgwrdma/backend-contract';
import { InvalidArgumentError } from '@vgwrdma/errors';

const MAX_ETAG_PART_SIZE = 5 * 1024 ** 3;

export function checkEtagMode(mode: EtagMode): EtagMode {
  if (mode.kind === 'md5') return mode;
  const { partSize } = mode;
  if (!Number.isSafeInteger(partSize) || partSize < MIN_ETAG_PART_SIZE || partSize > MAX_ETAG_PART_SIZE) {
    throw new InvalidArgumentError(
      `the ETag part size must be a whole number of bytes from 5 MiB to 5 GiB (got ${partSize})`,
    );
  }
  return mode;
}
