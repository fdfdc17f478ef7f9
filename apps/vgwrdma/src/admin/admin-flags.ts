// The option schemas of `vgwrdma admin`: the connection flags before the verb (versitygw's names:
// --access/-a, --secret/-s, --endpoint-url/-er, --allow-insecure) and each verb's own flags.
// versitygw spells some aliases with one dash and several letters (-er, -ui); argv-aliases.ts
// rewrites those to the `--alias` form node:util parseArgs reads.

import { HELP_OPTION, nonEmpty, option } from '@vgwrdma/cli-options';
import { z } from 'zod';
import { isHttpUrl } from '../http-url.js';

const boolFlag = z.boolean();
const id = z
  .string()
  .regex(/^\d+$/, 'must be a whole number')
  .transform((v) => Number(v));
const endpoint = z
  .string()
  .refine(isHttpUrl, 'must be an http:// or https:// URL such as http://127.0.0.1:7070');
const role = z.enum(['user', 'admin', 'userplus'], "must be one of 'user', 'admin', 'userplus'");

const JSON_OPTION = {
  json: option(z.boolean(), { default: false, help: 'print the result as JSON instead of a table' }),
};

export const ADMIN_OPTIONS = {
  access: option(nonEmpty, {
    short: 'a',
    env: ['ADMIN_ACCESS_KEY_ID', 'ADMIN_ACCESS_KEY'],
    arg: 'KEY',
    help: 'access key of an admin account (the root account or a users.json admin)',
  }).optional(),
  secret: option(nonEmpty, {
    short: 's',
    env: ['ADMIN_SECRET_ACCESS_KEY', 'ADMIN_SECRET_KEY'],
    arg: 'SECRET',
    help: 'secret key of that account',
  }).optional(),
  'endpoint-url': option(endpoint, {
    aliases: ['er'],
    env: ['ADMIN_ENDPOINT_URL'],
    default: 'http://127.0.0.1:7070',
    arg: 'URL',
    help: "the gateway's S3 endpoint",
  }),
  region: option(nonEmpty, {
    aliases: ['rg'],
    env: ['ADMIN_REGION'],
    default: 'us-east-1',
    arg: 'REGION',
    help: "region the requests are signed for (the gateway's --region)",
  }),
  'allow-insecure': option(boolFlag, {
    env: ['ADMIN_ALLOW_INSECURE'],
    default: false,
    help: 'accept any TLS certificate of an https:// endpoint (self-signed test setups)',
  }),
  'ca-bundle': option(nonEmpty, {
    env: ['AWS_CA_BUNDLE'],
    arg: 'FILE',
    help: 'also trust the CA certificates (PEM) in FILE for an https:// endpoint (a private CA)',
  }).optional(),
  ...JSON_OPTION,
  ...HELP_OPTION,
};

const target = (what: string) => ({
  access: option(nonEmpty, { short: 'a', arg: 'KEY', help: what }).optional(),
});

/** The account fields create-user and update-user set (versitygw's names, plus issue 19's two). */
const ACCOUNT_OPTIONS = {
  secret: option(nonEmpty, { short: 's', arg: 'SECRET', help: 'secret key' }).optional(),
  role: option(role, { short: 'r', arg: 'ROLE', help: 'user, userplus or admin' }).optional(),
  'user-id': option(id, { aliases: ['ui'], arg: 'N', help: 'posix user id' }).optional(),
  'group-id': option(id, { aliases: ['gi'], arg: 'N', help: 'posix group id' }).optional(),
  'project-id': option(id, { aliases: ['pi'], arg: 'N', help: 'project id' }).optional(),
  'display-name': option(nonEmpty, {
    aliases: ['dn'],
    arg: 'NAME',
    help: 'display name shown in ACLs',
  }).optional(),
  email: option(nonEmpty, { arg: 'ADDRESS', help: 'e-mail address ACL grants may name' }).optional(),
};

export const ADMIN_SCHEMA = z.object(ADMIN_OPTIONS);
export const CREATE_USER_SCHEMA = z.object({
  ...target('access key of the new user'),
  ...ACCOUNT_OPTIONS,
  ...JSON_OPTION,
  ...HELP_OPTION,
});
export const UPDATE_USER_SCHEMA = z.object({
  ...target('access key of the user to change'),
  ...ACCOUNT_OPTIONS,
  ...JSON_OPTION,
  ...HELP_OPTION,
});
export const DELETE_USER_SCHEMA = z.object({
  ...target('access key of the user to delete'),
  ...JSON_OPTION,
  ...HELP_OPTION,
});
export const LIST_SCHEMA = z.object({ ...JSON_OPTION, ...HELP_OPTION });
export const CHANGE_OWNER_OPTIONS = {
  bucket: option(nonEmpty, { short: 'b', arg: 'BUCKET', help: 'the bucket' }).optional(),
  owner: option(nonEmpty, { short: 'o', arg: 'KEY', help: 'access key of the new owner' }).optional(),
  ...JSON_OPTION,
  ...HELP_OPTION,
};
export const CHANGE_OWNER_SCHEMA = z.object(CHANGE_OWNER_OPTIONS);
