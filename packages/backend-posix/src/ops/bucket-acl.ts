// The bucket `acl` attribute: owner and grants in versitygw's JSON shape. Ownership decides
// BucketAlreadyOwnedByYou, the ListBuckets owner filter and the admin owner change.
import type { BucketAcl } from '@vgwrdma/backend-contract';
import type { PosixEnv } from '../env.js';
import { bucketRel } from '../fs/layout.js';
import { ATTR } from '../meta/attr-names.js';
import { getJson } from '../meta/store.js';

export async function readBucketAcl(env: PosixEnv, bucket: string): Promise<BucketAcl | undefined> {
  return getJson<BucketAcl>(env.meta, bucketRel(bucket), ATTR.acl);
}

export async function readBucketOwner(env: PosixEnv, bucket: string): Promise<string | undefined> {
  return (await readBucketAcl(env, bucket).catch(() => undefined))?.Owner;
}

export async function writeBucketAcl(env: PosixEnv, bucket: string, acl: BucketAcl): Promise<void> {
  await env.meta.set(bucketRel(bucket), ATTR.acl, JSON.stringify(acl));
}

/** The ACL after an owner change: the owner, and the old owner's grants, move to `newOwner`. */
export function reownAcl(acl: BucketAcl, newOwner: string): BucketAcl {
  return {
    Owner: newOwner,
    Grantees: acl.Grantees.map((g) => (g.Access === acl.Owner ? { ...g, Access: newOwner } : g)),
  };
}
