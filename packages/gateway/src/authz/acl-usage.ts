// Whether a request may set ACLs at all: `--disable-acl` turns them off gateway-wide (Put*Acl
// refused; ACL headers on CreateBucket/PutObject ignored, as versitygw does, since no grant is
// consulted), and a bucket whose ownership is BucketOwnerEnforced accepts only the
// owner-full-control forms.
import { S3Error } from '@vgwrdma/backend-contract';
import { header, type RawHeaders } from '../http/headers.js';
import { hasGrantHeaders } from './acl/grant-headers.js';
import type { BucketState } from './bucket-state.js';

/** Canned values that leave an owner-enforced bucket's access unchanged. */
const OWNER_ONLY = new Set(['private', 'bucket-owner-full-control']);

const gatewayDisabled = () =>
  new S3Error('AccessControlListNotSupported', 'Access control lists are disabled at the gateway level');
const bucketDisallows = () => new S3Error('AccessControlListNotSupported', 'The bucket does not allow ACLs.');

function setsAcl(headers: RawHeaders): boolean {
  return header(headers, 'x-amz-acl') !== undefined || hasGrantHeaders(headers);
}

function hasBody(headers: RawHeaders): boolean {
  const len = header(headers, 'content-length');
  return (len !== undefined && len !== '0') || header(headers, 'transfer-encoding') !== undefined;
}

/** Checked before the handler of an ACL-carrying request on an existing bucket. */
export function checkAclUsage(
  action: string,
  headers: RawHeaders,
  state: BucketState,
  disableAcl: boolean,
): void {
  const enforced = state.ownership === 'BucketOwnerEnforced';
  const canned = header(headers, 'x-amz-acl');
  const ownerOnly = !hasGrantHeaders(headers) && (canned === undefined || OWNER_ONLY.has(canned));
  if (action === 's3:PutBucketAcl') {
    if (disableAcl) throw gatewayDisabled();
    if (enforced && (!ownerOnly || (canned === undefined && hasBody(headers)))) throw bucketDisallows();
  } else if (action === 's3:PutObjectAcl') {
    if (disableAcl) throw gatewayDisabled();
    if (enforced) throw bucketDisallows();
  } else if (action === 's3:PutObject' && enforced && setsAcl(headers) && !ownerOnly) {
    throw bucketDisallows();
  }
}
