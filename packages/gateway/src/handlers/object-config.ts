// Per-object state other than data and tags: retention, legal hold, ACL, restore, and
// GetObjectAttributes.
import { isS3Error, type ObjectAttributeName, type ObjectKey, S3Error } from '@vgwrdma/backend-contract';
import { cannedAcl } from '../authz/acl/canned-acl.js';
import { displayNames } from '../authz/acl/display-names.js';
import { requestedAcl } from '../authz/acl/request-acl.js';
import { header, httpDate, intParam, queryValue } from '../http/headers.js';
import type { Handler, S3Request } from '../routes/types.js';
import { checksumElements } from '../xml/checksum-elements.js';
import { each, el, group, xmlDocument } from '../xml/document.js';
import { partPageElements } from '../xml/part-page.js';
import { aclAccountIds, objectAclToStored, renderAcl, storedToObjectAcl } from '../xml/render-acl.js';
import { parseLegalHold, parseRetention } from '../xml/requests.js';
import { bucketOwnerOf, refusePublicAcl } from './acl-writes.js';
import { emptyResponse, opt, readBodyText, xmlResponse } from './respond.js';

function objectKey(req: S3Request): ObjectKey {
  return { bucket: req.bucket, key: req.key, ...opt('versionId', queryValue(req.query, 'versionId')) };
}

export const getObjectRetention: Handler = async (_c, req) => {
  const r = await req.backend.getObjectRetention(req.ctx, objectKey(req));
  return xmlResponse(xmlDocument('Retention', el('Mode', r.Mode) + el('RetainUntilDate', r.RetainUntilDate)));
};

export const putObjectRetention: Handler = async (_c, req) => {
  const retention = parseRetention(await readBodyText(req));
  const bypass = header(req.headers, 'x-amz-bypass-governance-retention')?.toLowerCase() === 'true';
  await req.backend.putObjectRetention(req.ctx, objectKey(req), retention, bypass);
  return emptyResponse(200);
};

export const getObjectLegalHold: Handler = async (_c, req) => {
  const on = await req.backend.getObjectLegalHold(req.ctx, objectKey(req));
  return xmlResponse(xmlDocument('LegalHold', el('Status', on ? 'ON' : 'OFF')));
};

export const putObjectLegalHold: Handler = async (_c, req) => {
  await req.backend.putObjectLegalHold(req.ctx, objectKey(req), parseLegalHold(await readBodyText(req)));
  return emptyResponse(200);
};

export const getObjectAcl: Handler = async (_c, req) => {
  const out = await req.backend.getObjectAcl(req.ctx, objectKey(req));
  const acl = objectAclToStored(out);
  return xmlResponse(renderAcl(acl, await displayNames(aclAccountIds(acl), req.accounts)), 200, {
    'x-amz-version-id': queryValue(req.query, 'versionId'),
  });
};

/** Replaces the object's ACL (its owner stays); a request naming none sets `private`. */
export const putObjectAcl: Handler = async (_c, req) => {
  const text = await readBodyText(req);
  const bucketOwner = await bucketOwnerOf(req);
  // A backend without object ACLs answers NotImplemented to the put as well; its owner is the bucket's.
  const current = await req.backend.getObjectAcl(req.ctx, objectKey(req)).catch((err: unknown) => {
    if (isS3Error(err) && err.code === 'NotImplemented') return undefined;
    throw err;
  });
  const owner = current?.owner.id ?? bucketOwner;
  const acl =
    (await requestedAcl({ headers: req.headers, body: text, owner, bucketOwner, accounts: req.accounts })) ??
    cannedAcl('private', owner, bucketOwner);
  await refusePublicAcl(req, acl);
  await req.backend.putObjectAcl(req.ctx, objectKey(req), storedToObjectAcl(acl));
  return emptyResponse(200, { 'x-amz-version-id': queryValue(req.query, 'versionId') });
};

export const restoreObject: Handler = async (_c, req) => {
  await readBodyText(req);
  await req.backend.restoreObject(req.ctx, objectKey(req));
  return emptyResponse(200);
};

const ATTRIBUTE_NAMES: readonly ObjectAttributeName[] = [
  'ETag',
  'Checksum',
  'ObjectParts',
  'StorageClass',
  'ObjectSize',
];

function parseAttributeNames(value: string | undefined): ObjectAttributeName[] {
  const names = (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (names.length === 0) {
    throw new S3Error(
      'InvalidRequest',
      'The x-amz-object-attributes header specifying the attributes to be retrieved is either missing or empty',
    );
  }
  return names.map((n) => {
    const found = ATTRIBUTE_NAMES.find((a) => a === n);
    if (!found)
      throw new S3Error('InvalidArgument', undefined, {
        detail: { ArgumentName: 'x-amz-object-attributes', ArgumentValue: n },
      });
    return found;
  });
}

export const getObjectAttributes: Handler = async (_c, req) => {
  const attributes = parseAttributeNames(header(req.headers, 'x-amz-object-attributes'));
  const out = await req.backend.getObjectAttributes(req.ctx, {
    ...objectKey(req),
    attributes,
    ...opt(
      'maxParts',
      intParam(req.query, 'max-parts', { min: 0, max: 1000 }) ?? intParamHeader(req, 'x-amz-max-parts'),
    ),
    ...opt('partNumberMarker', intParamHeader(req, 'x-amz-part-number-marker')),
  });
  const checksum = attributes.includes('Checksum')
    ? checksumElements(out.checksums) + el('ChecksumType', out.checksums ? out.checksumType : undefined)
    : '';
  const p = attributes.includes('ObjectParts') ? out.parts : undefined;
  const parts = p
    ? group(
        'ObjectParts',
        // S3 serialises TotalPartsCount as <PartsCount>.
        el('PartsCount', p.totalPartsCount) +
          partPageElements(p) +
          each(p.parts, (x) =>
            group(
              'Part',
              el('PartNumber', x.partNumber) + el('Size', x.size) + checksumElements(x.checksums),
            ),
          ),
      )
    : '';
  const doc = xmlDocument(
    'GetObjectAttributesResponse',
    (attributes.includes('ETag') ? el('ETag', out.etag?.replace(/"/g, '')) : '') +
      (checksum ? group('Checksum', checksum) : '') +
      parts +
      (attributes.includes('StorageClass') ? el('StorageClass', out.storageClass ?? 'STANDARD') : '') +
      (attributes.includes('ObjectSize') ? el('ObjectSize', out.size) : ''),
  );
  return xmlResponse(doc, 200, {
    'last-modified': httpDate(out.lastModified),
    'x-amz-version-id': out.versionId,
  });
};

function intParamHeader(req: S3Request, name: string): number | undefined {
  const v = header(req.headers, name);
  if (v === undefined) return undefined;
  return intParam(new URLSearchParams({ [name]: v }), name, { min: 0 });
}
