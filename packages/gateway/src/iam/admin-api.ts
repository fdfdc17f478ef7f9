// versitygw's user-administration API: PATCH /create-user, /update-user, /delete-user and
// /list-users, SigV4-signed by an admin account (header SigV4 over a signed body only: see
// admin-signing.ts). Bodies are XML (Account / MutableProps), the target user of update/delete is
// the `access` query parameter. No answer carries a secret: list-users leaves <Secret> out.
import { S3Error } from '@vgwrdma/backend-contract';
import { emptyResponse, readBodyText, xmlResponse } from '../handlers/respond.js';
import type { Handler } from '../routes/types.js';
import { each, el, group, XML_DECLARATION } from '../xml/document.js';
import { childText, parseXmlRoot, type XmlNode } from '../xml/parse.js';
import type { IamAccountUpdate, IamStore } from './iam-store.js';
import { type IamAccount, isRole } from './users-file.js';

const missingAccess = () => new S3Error('XAdminInvalidArgument', 'User access key ID is missing.');
const invalidRole = () =>
  new S3Error(
    'XAdminInvalidArgument',
    "User role has to be one of the following: 'user', 'admin', 'userplus'.",
  );

/** versitygw's CLI sends <Account> for create and <MutableProps> for update; accept either. */
function parseBody(xml: string): Record<string, XmlNode | XmlNode[]> {
  try {
    return parseXmlRoot(xml, 'Account');
  } catch {
    return parseXmlRoot(xml, 'MutableProps');
  }
}

function intField(node: Record<string, XmlNode | XmlNode[]>, name: string): number | undefined {
  const t = childText(node, name);
  if (t === undefined || t.trim() === '') return undefined;
  const n = Number(t);
  if (!Number.isInteger(n)) throw new S3Error('MalformedXML');
  return n;
}

function parseUpdate(node: Record<string, XmlNode | XmlNode[]>): IamAccountUpdate {
  const out: IamAccountUpdate = {};
  const secret = childText(node, 'Secret');
  const role = childText(node, 'Role');
  if (secret !== undefined && secret !== '') out.secret = secret;
  for (const [field, name] of [
    ['displayName', 'DisplayName'],
    ['email', 'Email'],
  ] as const) {
    const v = childText(node, name);
    if (v !== undefined && v !== '') out[field] = v;
  }
  if (role !== undefined && role !== '') {
    if (!isRole(role)) throw invalidRole();
    out.role = role;
  }
  for (const [field, name] of [
    ['userID', 'UserID'],
    ['groupID', 'GroupID'],
    ['projectID', 'ProjectID'],
  ] as const) {
    const v = intField(node, name);
    if (v !== undefined) out[field] = v;
  }
  return out;
}

/** One account as list-users shows it: never its secret (nobody needs it back; it stays in the store). */
function accountXml(a: IamAccount): string {
  return group(
    'Accounts',
    el('Access', a.access) +
      el('Role', a.role) +
      el('UserID', a.userID) +
      el('GroupID', a.groupID) +
      el('ProjectID', a.projectID) +
      el('DisplayName', a.displayName) +
      el('Email', a.email),
  );
}

function accessParam(query: URLSearchParams): string {
  const access = query.get('access');
  if (!access) throw missingAccess();
  return access;
}

/** Route handlers by path segment, bound to `store`. */
export function adminUserHandlers(store: IamStore): Readonly<Record<string, Handler>> {
  return {
    'create-user': async (_c, req) => {
      const node = parseBody(await readBodyText(req));
      const access = childText(node, 'Access') ?? '';
      const secret = childText(node, 'Secret') ?? '';
      if (access === '') throw missingAccess();
      if (secret === '') throw new S3Error('MalformedXML');
      const role = childText(node, 'Role') ?? 'user';
      if (!isRole(role)) throw invalidRole();
      const u = parseUpdate(node);
      await store.createUser({
        access,
        secret,
        role,
        userID: u.userID ?? 0,
        groupID: u.groupID ?? 0,
        projectID: u.projectID ?? 0,
        ...(u.displayName === undefined ? {} : { displayName: u.displayName }),
        ...(u.email === undefined ? {} : { email: u.email }),
      });
      return emptyResponse(201);
    },
    'update-user': async (_c, req) => {
      const access = accessParam(req.query);
      const text = await readBodyText(req);
      await store.updateUser(access, text.trim() === '' ? {} : parseUpdate(parseBody(text)));
      return emptyResponse(200);
    },
    'delete-user': async (_c, req) => {
      await store.deleteUser(accessParam(req.query));
      return emptyResponse(200);
    },
    'list-users': async () => {
      const users = await store.listUsers();
      return xmlResponse(
        `${XML_DECLARATION}<ListUserAccountsResult>${each(users, accountXml)}</ListUserAccountsResult>`,
      );
    },
  };
}
