// The gateway's admin API (versitygw's PATCH /<operation>), signed with the real body's SHA-256
// (never UNSIGNED-PAYLOAD), sent to the admin listener (the S3 one unless --admin-port). Answers
// of list-users are read for access key, role and names only: a gateway may leave secrets out.
import { baseUrl, config } from './config.js';
import { errorFromBody, NetworkError } from './errors.js';
import { call, childrenNamed, parseXml, textOf } from './s3.js';
import { sha256Hex, signedHeaders } from './sign.js';

export const ROLES = ['user', 'userplus', 'admin'] as const;
export type Role = (typeof ROLES)[number];

export interface UserRow {
  readonly access: string;
  readonly role: string;
  readonly displayName: string;
  readonly email: string;
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

async function admin(operation: string, query: Record<string, string> = {}, body = ''): Promise<Document> {
  const res = await call({
    method: 'PATCH',
    admin: true,
    path: `/${operation}`,
    query,
    ...(body === '' ? {} : { body, headers: { 'content-type': 'application/xml' } }),
  });
  return parseXml(await res.text());
}

export async function listUsers(): Promise<UserRow[]> {
  const doc = await admin('list-users');
  return childrenNamed(doc, 'Accounts', true).map((a) => ({
    access: textOf(a, 'Access') ?? '',
    role: textOf(a, 'Role') ?? '',
    displayName: textOf(a, 'DisplayName') ?? '',
    email: textOf(a, 'Email') ?? '',
  }));
}

export async function createUser(access: string, secret: string, role: Role): Promise<void> {
  await admin(
    'create-user',
    {},
    `<Account><Access>${esc(access)}</Access><Secret>${esc(secret)}</Secret><Role>${role}</Role></Account>`,
  );
}

export async function changeRole(access: string, role: Role): Promise<void> {
  await admin('update-user', { access }, `<MutableProps><Role>${role}</Role></MutableProps>`);
}

export async function deleteUser(access: string): Promise<void> {
  await admin('delete-user', { access });
}

export interface OwnedBucket {
  readonly name: string;
  readonly owner: string;
}

export async function listBucketOwners(): Promise<OwnedBucket[]> {
  const doc = await admin('list-buckets');
  return childrenNamed(doc, 'Bucket', true).map((b) => ({
    name: textOf(b, 'Name') ?? '',
    owner: textOf(b, 'Owner') ?? '',
  }));
}

export async function changeBucketOwner(bucket: string, owner: string): Promise<void> {
  await admin('change-bucket-owner', { bucket, owner });
}

/** The console listener's stats (same origin), signed like any admin request, empty body. */
export async function fetchStats(): Promise<unknown> {
  const base = location.origin;
  const path = new URL('api/stats', location.href).pathname;
  const headers = await signedHeaders({ method: 'GET', base, path, payloadHash: await sha256Hex('') });
  let res: Response;
  try {
    res = await fetch(`api/stats`, { headers, cache: 'no-store', credentials: 'omit' });
  } catch (error) {
    throw new NetworkError(error instanceof Error ? error.message : String(error));
  }
  if (!res.ok) throw errorFromBody(res.status, await res.text());
  return res.json();
}

export { baseUrl, config };
