// The XML of the admin API, both ways: the request bodies of create-user / update-user
// (<Account> / <MutableProps>, versitygw's element names) and the answers the CLI reads
// (ListUserAccountsResult, ListBucketsAndOwnersResult, the S3 <Error>), parsed with
// fast-xml-parser into plain typed records.
import { XMLBuilder, XMLParser } from 'fast-xml-parser';

export interface UserRow {
  readonly access: string;
  readonly role: string;
  readonly userID: number;
  readonly groupID: number;
  readonly projectID: number;
  readonly displayName?: string;
  readonly email?: string;
}

export interface BucketRow {
  readonly name: string;
  readonly owner: string;
  readonly creationDate: string;
}

export interface S3ErrorBody {
  readonly code: string;
  readonly message: string;
}

/** Request-body element by account field, in the order versitygw writes them. */
export const ACCOUNT_ELEMENTS = {
  access: 'Access',
  secret: 'Secret',
  role: 'Role',
  userID: 'UserID',
  groupID: 'GroupID',
  projectID: 'ProjectID',
  displayName: 'DisplayName',
  email: 'Email',
} as const;

export type AccountFields = Partial<Record<keyof typeof ACCOUNT_ELEMENTS, string | number>>;

const builder = new XMLBuilder({ format: false });
const parser = new XMLParser({
  parseTagValue: false,
  isArray: (name) => name === 'Accounts' || name === 'Bucket',
});

export function accountBody(root: 'Account' | 'MutableProps', fields: AccountFields): string {
  const inner: Record<string, string> = {};
  for (const [field, element] of Object.entries(ACCOUNT_ELEMENTS)) {
    const v = fields[field as keyof AccountFields];
    if (v !== undefined) inner[element] = String(v);
  }
  return builder.build({ [root]: inner }) as string;
}

type Node = Record<string, unknown>;

function parse(xml: string): Node {
  try {
    return parser.parse(xml) as Node;
  } catch {
    return {};
  }
}

const str = (n: Node, k: string): string => {
  const v = n[k];
  return typeof v === 'string' ? v : '';
};
const num = (n: Node, k: string): number => Number(str(n, k) || 0);
const list = (n: unknown, k: string): Node[] =>
  typeof n === 'object' && n !== null && Array.isArray((n as Node)[k]) ? ((n as Node)[k] as Node[]) : [];

export function parseUsers(xml: string): UserRow[] {
  return list(parse(xml).ListUserAccountsResult, 'Accounts').map((a) => ({
    access: str(a, 'Access'),
    role: str(a, 'Role'),
    userID: num(a, 'UserID'),
    groupID: num(a, 'GroupID'),
    projectID: num(a, 'ProjectID'),
    ...(str(a, 'DisplayName') === '' ? {} : { displayName: str(a, 'DisplayName') }),
    ...(str(a, 'Email') === '' ? {} : { email: str(a, 'Email') }),
  }));
}

export function parseBuckets(xml: string): BucketRow[] {
  return list(parse(xml).ListBucketsAndOwnersResult, 'Bucket').map((b) => ({
    name: str(b, 'Name'),
    owner: str(b, 'Owner'),
    creationDate: str(b, 'CreationDate'),
  }));
}

/** The S3 error of a refused request; undefined when the body is not one. */
export function parseError(xml: string): S3ErrorBody | undefined {
  const e = parse(xml).Error;
  if (typeof e !== 'object' || e === null) return undefined;
  return { code: str(e as Node, 'Code'), message: str(e as Node, 'Message') };
}
