// Bucket configuration stored and returned as the backend gives it: versioning, policy, CORS,
// website, ownership controls, object-lock configuration and the bucket ACL, within AWS's limits
// (a 20 KB policy: PolicyTooLarge; 100 CORS rules: InvalidRequest). Enforcement of policies and
// ACLs is not done here.
import { S3Error } from '@vgwrdma/backend-contract';
import { cannedAcl } from '../authz/acl/canned-acl.js';
import { displayNames } from '../authz/acl/display-names.js';
import { requestedAcl } from '../authz/acl/request-acl.js';
import { parseBucketPolicy } from '../authz/policy/index.js';
import { parseCorsRules } from '../cors/index.js';
import type { Handler } from '../routes/types.js';
import { el, group, xmlDocument } from '../xml/document.js';
import { parseXmlRoot } from '../xml/parse.js';
import { aclAccountIds, renderAcl } from '../xml/render-acl.js';
import {
  parseObjectLockConfiguration,
  parseOwnershipControls,
  parseVersioningConfiguration,
} from '../xml/requests.js';
import { bucketOwnerOf, refusePublicAcl } from './acl-writes.js';
import { refusePublicPolicy } from './public-access.js';
import { emptyResponse, readBodyText, xmlResponse } from './respond.js';

export const getBucketVersioning: Handler = async (_c, req) => {
  const status = await req.backend.getBucketVersioning(req.ctx, req.bucket);
  return xmlResponse(xmlDocument('VersioningConfiguration', el('Status', status)));
};

export const putBucketVersioning: Handler = async (_c, req) => {
  await req.backend.putBucketVersioning(
    req.ctx,
    req.bucket,
    parseVersioningConfiguration(await readBodyText(req)),
  );
  return emptyResponse(200);
};

export const getBucketPolicy: Handler = async (_c, req) => {
  const policy = await req.backend.getBucketPolicy(req.ctx, req.bucket);
  return new Response(policy, { status: 200, headers: { 'content-type': 'application/json' } });
};

/** AWS's limits: a bucket policy of at most 20 KB, a CORS configuration of at most 100 rules. */
const MAX_POLICY_BYTES = 20 * 1024;
const MAX_CORS_RULES = 100;

export const putBucketPolicy: Handler = async (_c, req) => {
  const text = await readBodyText(req);
  if (Buffer.byteLength(text) > MAX_POLICY_BYTES) throw new S3Error('PolicyTooLarge');
  await refusePublicPolicy(req, parseBucketPolicy(text, req.bucket));
  await req.backend.putBucketPolicy(req.ctx, req.bucket, text);
  return emptyResponse(204);
};

export const deleteBucketPolicy: Handler = async (_c, req) => {
  await req.backend.deleteBucketPolicy(req.ctx, req.bucket);
  return emptyResponse(204);
};

export const getBucketCors: Handler = async (_c, req) =>
  xmlResponse(await req.backend.getBucketCors(req.ctx, req.bucket));

export const putBucketCors: Handler = async (_c, req) => {
  const xml = await readBodyText(req);
  // RGW answers the same code and words as S3 for a 101st rule.
  if (parseCorsRules(xml).length > MAX_CORS_RULES) {
    throw S3Error.custom(
      'InvalidRequest',
      `The number of CORS rules should not exceed allowed limit of ${MAX_CORS_RULES} rules.`,
    );
  }
  await req.backend.putBucketCors(req.ctx, req.bucket, xml);
  return emptyResponse(200);
};

export const deleteBucketCors: Handler = async (_c, req) => {
  await req.backend.deleteBucketCors(req.ctx, req.bucket);
  return emptyResponse(204);
};

export const getBucketWebsite: Handler = async (_c, req) =>
  xmlResponse(await req.backend.getBucketWebsite(req.ctx, req.bucket));

export const putBucketWebsite: Handler = async (_c, req) => {
  const xml = await readBodyText(req);
  parseXmlRoot(xml, 'WebsiteConfiguration');
  await req.backend.putBucketWebsite(req.ctx, req.bucket, xml);
  return emptyResponse(200);
};

export const deleteBucketWebsite: Handler = async (_c, req) => {
  await req.backend.deleteBucketWebsite(req.ctx, req.bucket);
  return emptyResponse(204);
};

export const getBucketOwnershipControls: Handler = async (_c, req) => {
  const ownership = await req.backend.getBucketOwnershipControls(req.ctx, req.bucket);
  return xmlResponse(xmlDocument('OwnershipControls', group('Rule', el('ObjectOwnership', ownership))));
};

export const putBucketOwnershipControls: Handler = async (_c, req) => {
  await req.backend.putBucketOwnershipControls(
    req.ctx,
    req.bucket,
    parseOwnershipControls(await readBodyText(req)),
  );
  return emptyResponse(200);
};

export const deleteBucketOwnershipControls: Handler = async (_c, req) => {
  await req.backend.deleteBucketOwnershipControls(req.ctx, req.bucket);
  return emptyResponse(204);
};

export const getObjectLockConfiguration: Handler = async (_c, req) => {
  const cfg = await req.backend.getObjectLockConfiguration(req.ctx, req.bucket);
  const r = cfg.DefaultRetention;
  const rule = r
    ? group('Rule', group('DefaultRetention', el('Mode', r.Mode) + el('Days', r.Days) + el('Years', r.Years)))
    : '';
  return xmlResponse(
    xmlDocument(
      'ObjectLockConfiguration',
      el('ObjectLockEnabled', cfg.Enabled ? 'Enabled' : undefined) + rule,
    ),
  );
};

export const putObjectLockConfiguration: Handler = async (_c, req) => {
  await req.backend.putObjectLockConfiguration(
    req.ctx,
    req.bucket,
    parseObjectLockConfiguration(await readBodyText(req)),
  );
  return emptyResponse(200);
};

export const getBucketAcl: Handler = async (_c, req) => {
  const acl = await req.backend.getBucketAcl(req.ctx, req.bucket);
  return xmlResponse(renderAcl(acl, await displayNames(aclAccountIds(acl), req.accounts)));
};

/** The whole ACL is replaced (the owner stays); a request naming none sets `private`. */
export const putBucketAcl: Handler = async (_c, req) => {
  const text = await readBodyText(req);
  const Owner = await bucketOwnerOf(req);
  const acl =
    (await requestedAcl({
      headers: req.headers,
      body: text,
      owner: Owner,
      bucketOwner: Owner,
      accounts: req.accounts,
    })) ?? cannedAcl('private', Owner);
  await refusePublicAcl(req, acl);
  await req.backend.putBucketAcl(req.ctx, req.bucket, acl);
  return emptyResponse(200);
};
