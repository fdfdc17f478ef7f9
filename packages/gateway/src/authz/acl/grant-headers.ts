// x-amz-grant-* request headers (CreateBucket, PutBucketAcl, PutObject, PutObjectAcl, ...) into
// the grants they ask for. A header value lists grantees as `id="..."`, `uri="..."` or
// `emailAddress="..."`, comma separated; ids and e-mail addresses are resolved against the
// accounts afterwards (resolve-grants.ts).
import { type Permission, S3Error } from '@vgwrdma/backend-contract';
import { header, type RawHeaders } from '../../http/headers.js';

export const ALL_USERS = 'http://acs.amazonaws.com/groups/global/AllUsers';
export const AUTHENTICATED_USERS = 'http://acs.amazonaws.com/groups/global/AuthenticatedUsers';
export const GROUPS: ReadonlySet<string> = new Set([ALL_USERS, AUTHENTICATED_USERS]);

const GRANT_HEADERS: Readonly<Record<string, Permission>> = {
  'x-amz-grant-full-control': 'FULL_CONTROL',
  'x-amz-grant-read': 'READ',
  'x-amz-grant-write': 'WRITE',
  'x-amz-grant-read-acp': 'READ_ACP',
  'x-amz-grant-write-acp': 'WRITE_ACP',
};

/** One grant as a request names it, before ids and e-mail addresses are checked. */
export interface RequestedGrant {
  readonly kind: 'id' | 'uri' | 'email';
  readonly value: string;
  readonly permission: Permission;
}

const ENTRY_RE = /^\s*(id|uri|emailAddress)\s*=\s*"?([^"]*)"?\s*$/i;
const KIND: Readonly<Record<string, RequestedGrant['kind']>> = {
  id: 'id',
  uri: 'uri',
  emailaddress: 'email',
};

export function invalidArgument(name: string, value: string, message?: 'Invalid id'): S3Error {
  return new S3Error('InvalidArgument', message, { detail: { ArgumentName: name, ArgumentValue: value } });
}

function parseEntry(name: string, entry: string, permission: Permission): RequestedGrant {
  const m = ENTRY_RE.exec(entry);
  const kind = KIND[m?.[1]?.toLowerCase() ?? ''];
  const value = m?.[2] ?? '';
  if (!m || !kind || value === '') throw invalidArgument(name, entry);
  if (kind === 'uri' && !GROUPS.has(value)) throw invalidArgument(name, entry);
  return { kind, value, permission };
}

/** The grants named by grant headers; an empty list when the request has none. */
export function grantsFromHeaders(headers: RawHeaders): RequestedGrant[] {
  const out: RequestedGrant[] = [];
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
