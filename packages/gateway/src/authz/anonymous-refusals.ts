// Requests S3 never serves anonymously, whatever a policy or ACL says, each with its own
// AccessDenied message from the catalogue.
import { S3Error, type S3ErrorMessage } from '@vgwrdma/backend-contract';

export interface RouteShape {
  readonly method: string;
  readonly target: 'service' | 'bucket' | 'object';
  readonly action: string;
  readonly subresource?: string;
  readonly header?: string;
}

type Denial = S3ErrorMessage<'AccessDenied'>;

// biome-ignore format: a table reads best one row per line
const RULES: readonly { test: (r: RouteShape) => boolean; message: Denial }[] = [
  { test: (r) => r.target === 'service' || r.action === 's3:CreateBucket', message: 'Anonymous users cannot invoke this API. Please authenticate.' },
  { test: (r) => r.header === 'x-amz-copy-source', message: 'Anonymous users cannot copy objects. Please authenticate.' },
  { test: (r) => r.method === 'POST' && r.subresource === 'uploads', message: 'Anonymous users cannot initiate multipart uploads. Please authenticate.' },
  { test: (r) => r.action === 's3:GetBucketOwnershipControls' && r.method === 'GET', message: 's3:GetBucketOwnershipControls does not support Anonymous requests!' },
  { test: (r) => r.action === 's3:PutBucketOwnershipControls', message: 's3:PutBucketOwnershipControls does not support Anonymous requests!' },
];

/** Throws the matching AccessDenied when `route` cannot be served to an anonymous caller. */
export function refuseAnonymous(route: RouteShape): void {
  const rule = RULES.find((r) => r.test(route));
  if (rule) throw new S3Error('AccessDenied', rule.message);
}
