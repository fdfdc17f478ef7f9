// The flag tables of `vgwrdma admin`: the connection flags before the verb (versitygw's names:
// --access/-a, --secret/-s, --endpoint-url/-er, --allow-insecure) and each verb's own flags.
// versitygw spells some aliases with one dash and several letters (-er, -ui); argv-aliases.ts
// rewrites those to the `--alias` form node:util parseArgs reads.
import { z } from 'zod';
import { type FlagSpec, HELP_FLAG } from '../flags.js';
import { isHttpUrl } from '../http-url.js';

const nonEmpty = z.string().min(1, 'must not be empty');
const boolFlag = z.boolean();
const id = z
  .string()
  .regex(/^\d+$/, 'must be a whole number')
  .transform((v) => Number(v));
const endpoint = z
  .string()
  .refine(isHttpUrl, 'must be an http:// or https:// URL such as http://127.0.0.1:7070');
const role = z.enum(['user', 'admin', 'userplus'], "must be one of 'user', 'admin', 'userplus'");

/** -h / --help: the app's own, the same in every command's table. */
const help = HELP_FLAG;

const json = {
  name: 'json',
  type: 'boolean',
  env: [],
  schema: boolFlag,
  default: false,
  help: 'print the result as JSON instead of a table',
} as const satisfies FlagSpec;

export const ADMIN_FLAGS = [
  {
    name: 'access',
    short: 'a',
    type: 'string',
    env: ['ADMIN_ACCESS_KEY_ID', 'ADMIN_ACCESS_KEY'],
    schema: nonEmpty,
    arg: 'KEY',
    help: 'access key of an admin account (the root account or a users.json admin)',
  },
  {
    name: 'secret',
    short: 's',
    type: 'string',
    env: ['ADMIN_SECRET_ACCESS_KEY', 'ADMIN_SECRET_KEY'],
    schema: nonEmpty,
    arg: 'SECRET',
    help: 'secret key of that account',
  },
  {
    name: 'endpoint-url',
    aliases: ['er'],
    type: 'string',
    env: ['ADMIN_ENDPOINT_URL'],
    schema: endpoint,
    default: 'http://127.0.0.1:7070',
    arg: 'URL',
    help: "the gateway's S3 endpoint",
  },
  {
    name: 'region',
    aliases: ['rg'],
    type: 'string',
    env: ['ADMIN_REGION'],
    schema: nonEmpty,
    default: 'us-east-1',
    arg: 'REGION',
    help: "region the requests are signed for (the gateway's --region)",
  },
  {
    name: 'allow-insecure',
    type: 'boolean',
    env: ['ADMIN_ALLOW_INSECURE'],
    schema: boolFlag,
    default: false,
    help: 'accept any TLS certificate of an https:// endpoint (self-signed test setups)',
  },
  {
    name: 'ca-bundle',
    type: 'string',
    env: ['AWS_CA_BUNDLE'],
    schema: nonEmpty,
    arg: 'FILE',
    help: 'also trust the CA certificates (PEM) in FILE for an https:// endpoint (a private CA)',
  },
  json,
  help,
] as const satisfies readonly FlagSpec[];

const target = (what: string) =>
  ({
    name: 'access',
    short: 'a',
    type: 'string',
    env: [],
    schema: nonEmpty,
    arg: 'KEY',
    help: what,
  }) as const satisfies FlagSpec;

/** The account fields create-user and update-user set (versitygw's names, plus issue 19's two). */
const ACCOUNT_FIELDS = [
  {
    name: 'secret',
    short: 's',
    type: 'string',
    env: [],
    schema: nonEmpty,
    arg: 'SECRET',
    help: 'secret key',
  },
  {
    name: 'role',
    short: 'r',
    type: 'string',
    env: [],
    schema: role,
    arg: 'ROLE',
    help: 'user, userplus or admin',
  },
  { name: 'user-id', aliases: ['ui'], type: 'string', env: [], schema: id, arg: 'N', help: 'posix user id' },
  {
    name: 'group-id',
    aliases: ['gi'],
    type: 'string',
    env: [],
    schema: id,
    arg: 'N',
    help: 'posix group id',
  },
  { name: 'project-id', aliases: ['pi'], type: 'string', env: [], schema: id, arg: 'N', help: 'project id' },
  {
    name: 'display-name',
    aliases: ['dn'],
    type: 'string',
    env: [],
    schema: nonEmpty,
    arg: 'NAME',
    help: 'display name shown in ACLs',
  },
  {
    name: 'email',
    type: 'string',
    env: [],
    schema: nonEmpty,
    arg: 'ADDRESS',
    help: 'e-mail address ACL grants may name',
  },
] as const satisfies readonly FlagSpec[];

export const CREATE_USER_FLAGS = [
  target('access key of the new user'),
  ...ACCOUNT_FIELDS,
  json,
  help,
] as const;
export const UPDATE_USER_FLAGS = [
  target('access key of the user to change'),
  ...ACCOUNT_FIELDS,
  json,
  help,
] as const;
export const DELETE_USER_FLAGS = [target('access key of the user to delete'), json, help] as const;
export const LIST_FLAGS = [json, help] as const;
export const CHANGE_OWNER_FLAGS = [
  {
    name: 'bucket',
    short: 'b',
    type: 'string',
    env: [],
    schema: nonEmpty,
    arg: 'BUCKET',
    help: 'the bucket',
  },
  {
    name: 'owner',
    short: 'o',
    type: 'string',
    env: [],
    schema: nonEmpty,
    arg: 'KEY',
    help: 'access key of the new owner',
  },
  json,
  help,
] as const satisfies readonly FlagSpec[];
