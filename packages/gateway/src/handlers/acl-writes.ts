// What the ACL-carrying writes share: the ACL a new object gets (PutObject, CopyObject,
// CreateMultipartUpload, POST object), who owns it, and the public access block's
// BlockPublicAcls refusal of public ACLs on any write.
import { type BucketAcl, isS3Error, type ObjectAclOutput, S3Error } from '@vgwrdma/backend-contract';
import { aclIsPublic } from '../authz/acl/acl-permissions.js';
import { cannedAcl } from '../authz/acl/canned-acl.js';
import { requestedAcl } from '../authz/acl/request-acl.js';
import { header, type RawHeaders } from '../http/headers.js';
import type { S3Request } from '../routes/types.js';
import { storedToObjectAcl } from '../xml/render-acl.js';

/** AccessDenied when `acl` is public and the bucket's public access block sets BlockPublicAcls. */
export async function refusePublicAcl(req: S3Request, acl: BucketAcl): Promise<void> {
  if (!aclIsPublic(acl)) return;
  const block = await req.backend.getPublicAccessBlock(req.ctx, req.bucket).catch((err: unknown) => {
    if (
      isS3Error(err) &&
      (err.code === 'NoSuchPublicAccessBlockConfiguration' || err.code === 'NotImplemented')
    )
      return undefined;
    throw err;
  });
  if (block?.BlockPublicAcls) throw new S3Error('AccessDenied');
}

export async function bucketOwnerOf(req: S3Request): Promise<string> {
  if (req.bucketState) return req.bucketState.acl.Owner;
  return (await req.backend.getBucketAcl(req.ctx, req.bucket).catch(() => undefined))?.Owner ?? '';
}

/** Who writes: the signer, or '' for an anonymous request. */
export interface Writer {
  readonly access: string;
  readonly headers: RawHeaders;
}

/**
 * The ACL of a new object: what the write's headers ask for, private otherwise. The bucket
 * owner owns it when the writer is anonymous, when ownership is BucketOwnerEnforced, and under
 * BucketOwnerPreferred when the write grants it bucket-owner-full-control; the writer otherwise.
 */
export async function newObjectAcl(req: S3Request, writer: Writer): Promise<ObjectAclOutput> {
  const bucketOwner = await bucketOwnerOf(req);
  const ownership = req.bucketState?.ownership;
  const canned = header(writer.headers, 'x-amz-acl');
  const toBucketOwner =
    writer.access === '' ||
    ownership === 'BucketOwnerEnforced' ||
    (ownership === 'BucketOwnerPreferred' && canned === 'bucket-owner-full-control');
  const owner = toBucketOwner ? bucketOwner : writer.access;
  const acl =
    ownership === 'BucketOwnerEnforced'
      ? cannedAcl('private', owner)
      : ((await requestedAcl({ headers: writer.headers, owner, bucketOwner, accounts: req.accounts })) ??
        cannedAcl('private', owner, bucketOwner));
  await refusePublicAcl(req, acl);
  return storedToObjectAcl(acl);
}

/** The new object's ACL for a request signed by its own caller. */
export function requestObjectAcl(req: S3Request): Promise<ObjectAclOutput> {
  return newObjectAcl(req, { access: req.auth.anonymous ? '' : req.account.access, headers: req.headers });
}
