// Bucket configuration stored and returned as the backend gives it: versioning, policy, CORS,
// website, ownership controls, object-lock configuration and the bucket ACL. Enforcement of
// policies and ACLs is not done here.
import { S3Error } from '@vgwrdma/s3-backend';
import { header } from '../http/headers.js';
import type { Handler } from '../routes/types.js';
import { el, group, xmlDocument } from '../xml/document.js';
import { parseXmlRoot } from '../xml/parse.js';
import { renderBucketAcl } from '../xml/render-acl.js';
import {
  parseAccessControlPolicy,
  parseObjectLockConfiguration,
  parseOwnershipControls,
  parseVersioningConfiguration,
} from '../xml/requests.js';
import { cannedAcl } from './bucket.js';
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

export const putBucketPolicy: Handler = async (_c, req) => {
  const text = await readBodyText(req);
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
      throw new Error('not an object');
  } catch {
    throw S3Error.custom('InvalidArgument', "Policies must be valid JSON and the first byte must be '{'");
  }
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
  parseXmlRoot(xml, 'CORSConfiguration');
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

export const getBucketAcl: Handler = async (_c, req) =>
  xmlResponse(renderBucketAcl(await req.backend.getBucketAcl(req.ctx, req.bucket)));

export const putBucketAcl: Handler = async (_c, req) => {
  const canned = header(req.headers, 'x-amz-acl');
  const text = await readBodyText(req);
  if (canned !== undefined && text.trim() !== '') {
    throw new S3Error('InvalidRequest', 'Specifying both Canned ACLs and Header Grants is not allowed.');
  }
  let acl = canned !== undefined || text.trim() === '' ? undefined : parseAccessControlPolicy(text);
  if (!acl) {
    // A canned ACL keeps the bucket's owner.
    const current = await req.backend.getBucketAcl(req.ctx, req.bucket);
    acl = cannedAcl(current.Owner, canned ?? 'private');
  }
  await req.backend.putBucketAcl(req.ctx, req.bucket, acl);
  return emptyResponse(200);
};
