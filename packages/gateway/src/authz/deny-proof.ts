// What an explicit Deny in a bucket policy leaves to whom. A Deny binds every caller, the bucket
// owner and admin accounts included, as on AWS, where a Deny also binds the account's root user.
// The one exception is the policy itself: the owner (and an admin) may still read, replace and
// delete the bucket policy, so a policy that locks everyone out can be undone.
const POLICY_ACTIONS: ReadonlySet<string> = new Set([
  's3:GetBucketPolicy',
  's3:PutBucketPolicy',
  's3:DeleteBucketPolicy',
]);

/** Whether a caller keeps `action` although the bucket policy denies it. */
export function keepsUnderDeny(action: string, ownerOrAdmin: boolean): boolean {
  return ownerOrAdmin && POLICY_ACTIONS.has(action);
}
