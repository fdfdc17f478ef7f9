// versitygw's bucket-administration paths next to the user API: PATCH /list-buckets (every bucket
// with its owner) and PATCH /change-bucket-owner?bucket=&owner= (the new owner must be a known
// account). Ownership changes drop the bucket's cached access state.
import { S3Error } from '@vgwrdma/backend-contract';
import type { BucketStateCache } from '../authz/index.js';
import { listBucketsAndOwners } from '../handlers/bucket.js';
import { emptyResponse } from '../handlers/respond.js';
import type { Handler } from '../routes/types.js';
import type { IamStore } from './iam-store.js';

export function adminBucketHandlers(
  iam: IamStore | undefined,
  cache: BucketStateCache,
): Readonly<Record<string, Handler>> {
  return {
    'list-buckets': listBucketsAndOwners,
    'change-bucket-owner': async (_c, req) => {
      const bucket = req.query.get('bucket') ?? '';
      const owner = req.query.get('owner') ?? '';
      if (bucket === '' || owner === '') throw new S3Error('XAdminInvalidRequest');
      if (iam && !(await iam.lookup(owner))) throw new S3Error('XAdminUserNotFound');
      try {
        await req.backend.changeBucketOwner(req.ctx, bucket, owner);
      } finally {
        cache.invalidate(bucket);
      }
      return emptyResponse(200);
    },
  };
}

/** Without an IAM directory, user management answers as versitygw's single-user mode does. */
export function singleUserHandlers(): Readonly<Record<string, Handler>> {
  const refuse: Handler = async () => {
    throw new S3Error('XAdminMethodNotSupported');
  };
  return { 'create-user': refuse, 'update-user': refuse, 'delete-user': refuse, 'list-users': refuse };
}
