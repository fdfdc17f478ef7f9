// --adopt-ownerless-buckets ACCESS, run once at start-up before anything is served: every bucket
// the backend lists without a recorded owner becomes ACCESS's, by the same owner change an
// admin's change-bucket-owner makes. The account must exist (the root account or one in the
// IAM store); a backend that keeps no owners (the s3 backend without --meta-bucket) stops the
// start. A top-level entry that is no valid bucket name is left alone, with a warning.

import { type Backend, isS3Error, type RequestContext } from '@vgwrdma/backend-contract';
import { StartupError } from '@vgwrdma/errors';
import type { IamStore, Logger } from '@vgwrdma/gateway';

const FLAG = '--adopt-ownerless-buckets';

/** Gives every ownerless bucket to `access`; answers the names of the buckets it adopted. */
export async function adoptOwnerlessBuckets(
  backend: Backend,
  iam: IamStore,
  access: string,
  logger: Logger,
): Promise<string[]> {
  const credential = await iam.lookup(access);
  if (!credential) throw new StartupError(`${FLAG}: no account has the access key ${access}`);
  const ctx: RequestContext = {
    account: credential.account,
    requestId: 'adopt-ownerless-buckets',
    signal: new AbortController().signal,
  };
  const adopted: string[] = [];
  for (const bucket of await backend.listBucketsAndOwners(ctx)) {
    if (bucket.owner !== undefined && bucket.owner !== '') continue;
    try {
      await backend.changeBucketOwner(ctx, bucket.name, access);
    } catch (err) {
      if (isS3Error(err) && err.code === 'InvalidBucketName') {
        logger.warn({ bucket: bucket.name }, `${FLAG}: not a valid bucket name, left without an owner`);
        continue;
      }
      if (isS3Error(err) && err.code === 'NotImplemented')
        throw new StartupError(`${FLAG}: this backend keeps no bucket owners (${err.message})`, {
          cause: err,
        });
      throw err;
    }
    adopted.push(bucket.name);
    logger.info({ bucket: bucket.name, owner: access }, 'adopted a bucket without a recorded owner');
  }
  return adopted;
}
