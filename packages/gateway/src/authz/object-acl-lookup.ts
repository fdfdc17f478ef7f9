// The object's own ACL for the authorizer, read only for callers other than the bucket owner
// and only for the actions it decides (acl-permissions.ts). 'missing' tells the authorizer the
// object (version) does not exist, so it can answer 404 or 403 as S3 does; `undefined` means
// the object has no ACL of its own (versitygw's trees, backends without object ACLs), and the
// bucket ACL decides instead.
import {
  type Backend,
  type BucketAcl,
  isS3Error,
  type ObjectKey,
  type RequestContext,
} from '@vgwrdma/backend-contract';
import { objectAclToStored } from '../xml/render-acl.js';

const MISSING = new Set(['NoSuchKey', 'NoSuchVersion']);

export async function lookupObjectAcl(
  backend: Backend,
  ctx: RequestContext,
  key: ObjectKey,
): Promise<BucketAcl | 'missing' | undefined> {
  try {
    const out = await backend.getObjectAcl(ctx, key);
    return out.inherited ? undefined : objectAclToStored(out);
  } catch (err) {
    if (isS3Error(err) && MISSING.has(err.code)) return 'missing';
    // NotImplemented, or a failure the handler will meet and answer itself.
    return undefined;
  }
}
