// An object ACL set with the write, admitted by the write's own Allow: a bucket policy that
// allows s3:PutObject only when the request carries a given x-amz-acl or x-amz-grant-* value
// (the usual "uploaders must grant the bucket owner full control" policy) has decided that
// header itself, so a PUT that satisfies it needs no separate s3:PutObjectAcl, as Ceph RGW
// evaluates such policies. Only headers every one of which that statement's conditions name
// are admitted this way; any other ACL header still needs s3:PutObjectAcl.
import { statementApplies } from './evaluate-policy.js';
import type { BucketPolicy, PolicyRequest } from './types.js';

/** The request's ACL headers as condition keys (s3:x-amz-acl, s3:x-amz-grant-*). */
export function aclConditionKeys(context: ReadonlyMap<string, readonly string[]>): string[] {
  return [...context.keys()].filter((k) => k === 's3:x-amz-acl' || k.startsWith('s3:x-amz-grant-'));
}

/**
 * Whether an Allow statement that applies to `write` (the PutObject itself, conditions
 * included) constrains every ACL header the request carries.
 */
export function writeAllowCoversAcl(policy: BucketPolicy, write: PolicyRequest): boolean {
  const keys = aclConditionKeys(write.context);
  if (keys.length === 0) return false;
  return policy.statements.some(
    (s) =>
      s.effect === 'Allow' &&
      keys.every((k) => s.conditions.some((c) => c.key === k)) &&
      statementApplies(s, write),
  );
}
