// Public access block (Put/Get/DeletePublicAccessBlock), the BlockPublicPolicy refusal of public
// bucket policies, and GetBucketPolicyStatus. BlockPublicAcls is applied where ACLs are
// written (acl-writes.ts), IgnorePublicAcls and RestrictPublicBuckets where access is decided
// (authz/authorizer.ts).
import { isS3Error, type PublicAccessBlock, S3Error } from '@vgwrdma/backend-contract';
import { aclIsPublic } from '../authz/acl/acl-permissions.js';
import { type BucketPolicy, parseBucketPolicy, policyIsPublic } from '../authz/policy/index.js';
import type { Handler, S3Request } from '../routes/types.js';
import { el, xmlDocument } from '../xml/document.js';
import { parsePublicAccessBlock, renderPublicAccessBlock } from '../xml/public-access-block.js';
import { emptyResponse, readBodyText, xmlResponse } from './respond.js';

/** The bucket's block, or undefined when it has none. */
async function blockOf(req: S3Request): Promise<PublicAccessBlock | undefined> {
  try {
    return await req.backend.getPublicAccessBlock(req.ctx, req.bucket);
  } catch (err) {
    if (
      isS3Error(err) &&
      (err.code === 'NoSuchPublicAccessBlockConfiguration' || err.code === 'NotImplemented')
    )
      return undefined;
    throw err;
  }
}

/** AccessDenied for a public policy on a bucket whose block sets BlockPublicPolicy. */
export async function refusePublicPolicy(req: S3Request, policy: BucketPolicy): Promise<void> {
  if (policyIsPublic(policy) && (await blockOf(req))?.BlockPublicPolicy) throw new S3Error('AccessDenied');
}

export const getPublicAccessBlock: Handler = async (_c, req) =>
  xmlResponse(renderPublicAccessBlock(await req.backend.getPublicAccessBlock(req.ctx, req.bucket)));

export const putPublicAccessBlock: Handler = async (_c, req) => {
  const block = parsePublicAccessBlock(await readBodyText(req));
  await req.backend.putPublicAccessBlock(req.ctx, req.bucket, block);
  return emptyResponse(200);
};

export const deletePublicAccessBlock: Handler = async (_c, req) => {
  await req.backend.deletePublicAccessBlock(req.ctx, req.bucket);
  return emptyResponse(204);
};

/** The bucket's policy, or undefined when it has none. */
async function policyOf(req: S3Request): Promise<BucketPolicy | undefined> {
  try {
    return parseBucketPolicy(await req.backend.getBucketPolicy(req.ctx, req.bucket), req.bucket);
  } catch (err) {
    if (isS3Error(err) && err.code === 'NoSuchBucketPolicy') return undefined;
    throw err;
  }
}

/**
 * GetBucketPolicyStatus, as Ceph RGW answers it: public when the policy allows everyone (an
 * Allow narrowed by a non-public condition such as aws:SourceIp is not), or the bucket ACL
 * grants to AllUsers / AuthenticatedUsers (public-read, public-read-write, authenticated-read)
 * and the block does not set IgnorePublicAcls. A bucket without a policy is answered too
 * (IsPublic from its ACL), not NoSuchBucketPolicy.
 */
export const getBucketPolicyStatus: Handler = async (_c, req) => {
  const policy = await policyOf(req);
  const block = await blockOf(req);
  const acl = await req.backend.getBucketAcl(req.ctx, req.bucket).catch(() => undefined);
  const viaAcl = acl !== undefined && aclIsPublic(acl) && !block?.IgnorePublicAcls;
  const viaPolicy = policy !== undefined && policyIsPublic(policy);
  return xmlResponse(xmlDocument('PolicyStatus', el('IsPublic', viaPolicy || viaAcl)));
};
