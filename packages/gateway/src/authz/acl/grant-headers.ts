// x-amz-grant-* request headers (CreateBucket, PutBucketAcl) into the stored ACL's grantees.
// A header value lists grantees as `id="..."` or `uri="..."`, comma separated.
import { type BucketAcl, type Permission, S3Error } from '@vgwrdma/s3-backend';
import { header, type RawHeaders } from '../../http/headers.js';

export const ALL_USERS = 'http://acs.amazonaws.com/groups/global/AllUsers';
export const AUTHENTICATED_USERS = 'http://acs.amazonaws.com/groups/global/AuthenticatedUsers';
const GROUPS = new Set([ALL_USERS, AUTHENTICATED_USERS]);

const GRANT_HEADERS: Readonly<Record<string, Permission>> = {
  'x-amz-grant-full-control': 'FULL_CONTROL',
  'x-amz-grant-read': 'READ',
  'x-amz-grant-write': 'WRITE',
  'x-amz-grant-read-acp': 'READ_ACP',
  'x-amz-grant-write-acp': 'WRITE_ACP',
};

type Grantee = BucketAcl['Grantees'][number];
const ENTRY_RE = /^\s*(id|uri|emailAddress)\s*=\s*"?([^"]*)"?\s*$/i;

function invalid(name: string, value: string): S3Error {
  return new S3Error('InvalidArgument', undefined, { detail: { ArgumentName: name, ArgumentValue: value } });
}

function parseEntry(name: string, entry: string, permission: Permission): Grantee {
  const m = ENTRY_RE.exec(entry);
  const kind = m?.[1]?.toLowerCase();
  const value = m?.[2] ?? '';
  if (!m || value === '') throw invalid(name, entry);
  if (kind === 'id') return { Permission: permission, Access: value, Type: 'CanonicalUser' };
  if (kind === 'uri' && GROUPS.has(value)) return { Permission: permission, Access: value, Type: 'Group' };
  throw invalid(name, entry);
}

/** The grantees named by grant headers; an empty list when the request has none. */
export function grantsFromHeaders(headers: RawHeaders): Grantee[] {
  const out: Grantee[] = [];
  for (const [name, permission] of Object.entries(GRANT_HEADERS)) {
    const value = header(headers, name);
    if (value === undefined) continue;
    for (const entry of value.split(',')) {
      if (entry.trim() !== '') out.push(parseEntry(name, entry, permission));
    }
  }
  return out;
}

export function hasGrantHeaders(headers: RawHeaders): boolean {
  return Object.keys(GRANT_HEADERS).some((name) => headers[name] !== undefined);
}
