// Bucket lifecycle: ListBuckets, CreateBucket, HeadBucket, DeleteBucket, GetBucketLocation, and
// the two admin operations (change owner, list buckets with owners). A bucket without a recorded
// owner is nobody's: CreateBucket answers BucketAlreadyExists (admins, who serve it,
// BucketAlreadyOwnedByYou) and never gives it an owner; only change-bucket-owner does.
import { escapeXml, type ObjectOwnership, S3Error } from '@vgwrdma/backend-contract';
import { cannedAcl } from '../authz/acl/canned-acl.js';
import { requestedAcl } from '../authz/acl/request-acl.js';
import { header, intParam, queryValue } from '../http/headers.js';
import type { Handler, S3Request } from '../routes/types.js';
import { each, el, group, xmlDocument } from '../xml/document.js';
import { parseCreateBucketConfiguration } from '../xml/requests.js';
import { emptyResponse, opt, readBodyText, xmlResponse } from './respond.js';

export const listBuckets: Handler = async (_c, req) => {
  const prefix = queryValue(req.query, 'prefix');
  const out = await req.backend.listBuckets(req.ctx, {
    // Non-admin accounts see their own buckets only.
    ...(req.account.role === 'admin' ? {} : { owner: req.account.access }),
    ...opt('prefix', prefix),
    ...opt('continuationToken', queryValue(req.query, 'continuation-token')),
    ...opt('maxBuckets', intParam(req.query, 'max-buckets', { min: 1, max: 10000 })),
  });
  const buckets = each(out.buckets, (b) =>
    group('Bucket', el('Name', b.name) + el('CreationDate', b.creationDate)),
  );
  const doc = xmlDocument(
    'ListAllMyBucketsResult',
    group('Owner', el('ID', req.account.access) + el('DisplayName', req.account.access)) +
      group('Buckets', buckets) +
      el('ContinuationToken', out.continuationToken) +
      el('Prefix', prefix),
  );
  return xmlResponse(doc);
};

const OWNERSHIPS: readonly ObjectOwnership[] = [
  'BucketOwnerEnforced',
  'BucketOwnerPreferred',
  'ObjectWriter',
];

export const createBucket: Handler = async (_c, req) => {
  if (req.auth.anonymous)
    throw new S3Error('AccessDenied', 'Anonymous users cannot invoke this API. Please authenticate.');
  const { locationConstraint } = parseCreateBucketConfiguration(await readBodyText(req));
  if (locationConstraint !== undefined && locationConstraint !== req.region)
    throw new S3Error('InvalidLocationConstraint');
  const ownershipRaw = header(req.headers, 'x-amz-object-ownership');
  const ownership = OWNERSHIPS.find((o) => o === ownershipRaw);
  if (ownershipRaw !== undefined && !ownership) {
    throw new S3Error('InvalidArgument', undefined, {
      detail: { ArgumentName: 'x-amz-object-ownership', ArgumentValue: ownershipRaw },
    });
  }
  const canned = header(req.headers, 'x-amz-acl');
  if (canned !== undefined && ownership === 'BucketOwnerEnforced' && canned !== 'private') {
    throw new S3Error('InvalidBucketAclWithObjectOwnership');
  }
  const owner = req.account.access;
  const acl =
    (await requestedAcl({ headers: req.headers, owner, bucketOwner: owner, accounts: req.accounts })) ??
    cannedAcl('private', owner);
  try {
    await req.backend.createBucket(req.ctx, {
      bucket: req.bucket,
      owner,
      acl,
      ...(header(req.headers, 'x-amz-bucket-object-lock-enabled')?.toLowerCase() === 'true'
        ? { objectLockEnabled: true }
        : {}),
      ...opt('ownership', ownership),
    });
  } catch (err) {
    if (isCode(err, 'BucketAlreadyExists') && req.account.role === 'admin') {
      // Admins serve a bucket without a recorded owner; CreateBucket still gives it none.
      const recorded = await recordedOwner(req);
      if (recorded === '' || recorded === undefined) throw ownerlessForAdmin();
      throw err;
    }
    if (!(isCode(err, 'BucketAlreadyOwnedByYou') && req.region === LEGACY_RECREATE_REGION)) throw err;
    // The ACL must name the caller before it is reset: a backend that counted an ownerless
    // bucket as the caller's would otherwise hand it over here.
    const recorded = await recordedOwner(req);
    if (recorded !== undefined && recorded !== owner) {
      throw recorded === '' && req.account.role === 'admin'
        ? ownerlessForAdmin()
        : new S3Error('BucketAlreadyExists');
    }
    // us-east-1's legacy rule: re-creating your own bucket succeeds and resets its ACL to the
    // one this request asks for; objects and every other setting stay as they are. A backend
    // that keeps no ACLs (the s3 backend without a meta bucket) has none to reset.
    if (recorded !== undefined) await req.backend.putBucketAcl(req.ctx, req.bucket, acl);
  }
  return emptyResponse(200, { location: `/${req.bucket}` });
};

/** S3 answers BucketAlreadyOwnedByYou in every region but us-east-1, where it answers 200. */
const LEGACY_RECREATE_REGION = 'us-east-1';

function isCode(err: unknown, code: string): boolean {
  return err instanceof S3Error && err.code === code;
}

/** The bucket ACL's owner ('' = none recorded); undefined when the backend keeps no ACLs (no owners either). */
async function recordedOwner(req: S3Request): Promise<string | undefined> {
  try {
    return (await req.backend.getBucketAcl(req.ctx, req.bucket)).Owner;
  } catch (err) {
    if (isCode(err, 'NotImplemented')) return undefined;
    throw err;
  }
}

/** An admin's CreateBucket on a bucket with no recorded owner: in every region, and no owner given. */
function ownerlessForAdmin(): S3Error {
  return S3Error.custom(
    'BucketAlreadyOwnedByYou',
    'The bucket exists without a recorded owner; admin accounts serve it. Give it an owner with change-bucket-owner.',
  );
}

export const headBucket: Handler = async (_c, req) => {
  const out = await req.backend.headBucket(req.ctx, req.bucket);
  return emptyResponse(200, { 'x-amz-bucket-region': out.region ?? req.region });
};

export const deleteBucket: Handler = async (_c, req) => {
  await req.backend.deleteBucket(req.ctx, req.bucket);
  return emptyResponse(204);
};

export const getBucketLocation: Handler = async (_c, req) => {
  const out = await req.backend.headBucket(req.ctx, req.bucket);
  const region = out.region ?? req.region;
  // us-east-1 is reported as an empty constraint, as S3 does.
  return xmlResponse(xmlDocument('LocationConstraint', escapeXml(region === 'us-east-1' ? '' : region)));
};

export const changeBucketOwner: Handler = async (_c, req) => {
  const owner = header(req.headers, 'x-vgw-owner');
  if (!owner) {
    throw new S3Error('XAdminInvalidRequest');
  }
  await req.backend.changeBucketOwner(req.ctx, req.bucket, owner);
  return emptyResponse(200);
};

export const listBucketsAndOwners: Handler = async (_c, req) => {
  const buckets = await req.backend.listBucketsAndOwners(req.ctx);
  const doc = xmlDocument(
    'ListBucketsAndOwnersResult',
    each(buckets, (b) =>
      group('Bucket', el('Name', b.name) + el('Owner', b.owner) + el('CreationDate', b.creationDate)),
    ),
  );
  return xmlResponse(doc);
};
