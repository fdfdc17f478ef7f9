// The permissions a write's options need besides the write itself. A PutObject, CopyObject,
// CreateMultipartUpload or POST object that sets the new object's ACL or its tags asks for
// s3:PutObjectAcl or s3:PutObjectTagging too, as AWS documents for PutObject. Canned ACLs that
// give nothing to anyone but the writer and the bucket owner (`private`, `bucket-owner-read`,
// `bucket-owner-full-control`) need no more than the write: that is the shape of the usual
// cross-account upload policy ("s3:PutObject when s3:x-amz-acl is bucket-owner-full-control"),
// and such an ACL cannot widen access. Every other canned ACL and every x-amz-grant-* header can,
// so it is checked.
import { header, type RawHeaders } from '../http/headers.js';
import type { RouteShape } from './anonymous-refusals.js';

/** The canned ACLs that grant nobody beyond the object's writer and the bucket's owner. */
const OWNERS_ONLY = new Set(['private', 'bucket-owner-read', 'bucket-owner-full-control']);

interface OptionRule {
  readonly header: string;
  readonly asks: (value: string) => boolean;
  readonly action: string;
}

const always = () => true;

// biome-ignore format: a table reads best one row per line
const OPTION_RULES: readonly OptionRule[] = [
  { header: 'x-amz-acl', asks: (v) => !OWNERS_ONLY.has(v.trim().toLowerCase()), action: 's3:PutObjectAcl' },
  { header: 'x-amz-grant-read', asks: always, action: 's3:PutObjectAcl' },
  { header: 'x-amz-grant-read-acp', asks: always, action: 's3:PutObjectAcl' },
  { header: 'x-amz-grant-write-acp', asks: always, action: 's3:PutObjectAcl' },
  { header: 'x-amz-grant-full-control', asks: always, action: 's3:PutObjectAcl' },
  { header: 'x-amz-tagging', asks: (v) => v !== '', action: 's3:PutObjectTagging' },
];

/** PutObject, CopyObject, CreateMultipartUpload and POST object: the writes that create an object. */
export function createsObject(route: RouteShape): boolean {
  return (
    route.action === 's3:PutObject' && (route.subresource === undefined || route.subresource === 'uploads')
  );
}

/**
 * The actions the options of an object-creating write ask for (none for other requests). They
 * are decided as writes are (see Authorizer): the object does not exist yet, or is replaced, so
 * no object ACL takes part.
 */
export function writeOptionActions(route: RouteShape, headers: RawHeaders): string[] {
  if (!createsObject(route)) return [];
  const actions = OPTION_RULES.filter((rule) => {
    const value = header(headers, rule.header);
    return value !== undefined && rule.asks(value);
  }).map((rule) => rule.action);
  return [...new Set(actions)];
}
