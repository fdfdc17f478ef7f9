// The verbs of `vgwrdma admin`, as data: each row names its flags, which of them are required,
// the admin API call its values make, and how the answer is shown (a table, or JSON with --json).
// The calls are versitygw's: PATCH /create-user, /update-user?access=, /delete-user?access=,
// /list-users, /list-buckets, /change-bucket-owner?bucket=&owner=.
import type { z } from 'zod';
import type { AdminCall } from './admin-client.js';
import {
  CHANGE_OWNER_SCHEMA,
  CREATE_USER_SCHEMA,
  DELETE_USER_SCHEMA,
  LIST_SCHEMA,
  UPDATE_USER_SCHEMA,
} from './admin-flags.js';
import { formatTable } from './admin-table.js';
import { type AccountFields, accountBody, parseBuckets, parseUsers } from './admin-xml.js';

export type VerbValues = Readonly<Record<string, unknown>>;

export interface Output {
  /** What is printed without --json. */
  readonly text: string;
  /** What --json prints (one JSON document). */
  readonly json: unknown;
}

export interface AdminVerb {
  readonly help: string;
  /** The verb's own options. */
  readonly flags: z.ZodObject;
  /** Flags without which the verb cannot run. */
  readonly required: readonly string[];
  call(v: VerbValues): AdminCall;
  /** The successful answer's body, shown. */
  show(v: VerbValues, body: string): Output;
}

const s = (v: unknown): string => String(v);

function accountFields(v: VerbValues, withAccess: boolean): AccountFields {
  const out: AccountFields = {};
  const set = (field: keyof AccountFields, flag: string) => {
    const x = v[flag];
    if (x !== undefined) out[field] = x as string | number;
  };
  if (withAccess) set('access', 'access');
  set('secret', 'secret');
  set('role', 'role');
  set('userID', 'user-id');
  set('groupID', 'group-id');
  set('projectID', 'project-id');
  set('displayName', 'display-name');
  set('email', 'email');
  return out;
}

const done = (message: string, json: Record<string, unknown>): Output => ({
  text: `${message}\n`,
  json: { ok: true, ...json },
});

export const ADMIN_VERBS: Readonly<Record<string, AdminVerb>> = {
  'create-user': {
    help: 'create a user account (role user unless --role says otherwise)',
    flags: CREATE_USER_SCHEMA,
    required: ['access', 'secret'],
    call: (v) => ({
      operation: 'create-user',
      body: accountBody('Account', { role: 'user', ...accountFields(v, true) }),
    }),
    show: (v) => done(`created user ${s(v.access)}`, { access: v.access }),
  },
  'update-user': {
    help: "change a user's secret, role, ids, display name or e-mail (only the flags given)",
    flags: UPDATE_USER_SCHEMA,
    required: ['access'],
    call: (v) => ({
      operation: 'update-user',
      query: { access: s(v.access) },
      body: accountBody('MutableProps', accountFields(v, false)),
    }),
    show: (v) => done(`updated user ${s(v.access)}`, { access: v.access }),
  },
  'delete-user': {
    help: 'delete a user account',
    flags: DELETE_USER_SCHEMA,
    required: ['access'],
    call: (v) => ({ operation: 'delete-user', query: { access: s(v.access) } }),
    show: (v) => done(`deleted user ${s(v.access)}`, { access: v.access }),
  },
  'list-users': {
    help: 'list the user accounts (secrets are never printed)',
    flags: LIST_SCHEMA,
    required: [],
    call: () => ({ operation: 'list-users' }),
    show: (_v, body) => {
      const users = parseUsers(body);
      return {
        json: users,
        text: formatTable(
          ['ACCOUNT', 'ROLE', 'USER ID', 'GROUP ID', 'PROJECT ID', 'DISPLAY NAME', 'EMAIL'],
          users.map((u) => [
            u.access,
            u.role,
            s(u.userID),
            s(u.groupID),
            s(u.projectID),
            u.displayName ?? '',
            u.email ?? '',
          ]),
        ),
      };
    },
  },
  'list-buckets': {
    help: 'list every bucket with its owner',
    flags: LIST_SCHEMA,
    required: [],
    call: () => ({ operation: 'list-buckets' }),
    show: (_v, body) => {
      const buckets = parseBuckets(body);
      return {
        json: buckets,
        text: formatTable(
          ['BUCKET', 'OWNER', 'CREATED'],
          buckets.map((b) => [b.name, b.owner, b.creationDate]),
        ),
      };
    },
  },
  'change-bucket-owner': {
    help: 'give a bucket to another account',
    flags: CHANGE_OWNER_SCHEMA,
    required: ['bucket', 'owner'],
    call: (v) => ({ operation: 'change-bucket-owner', query: { bucket: s(v.bucket), owner: s(v.owner) } }),
    show: (v) =>
      done(`bucket ${s(v.bucket)} now belongs to ${s(v.owner)}`, { bucket: v.bucket, owner: v.owner }),
  },
};
