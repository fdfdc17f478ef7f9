// The IAM services beyond --iam-dir, with versitygw's flag names and environment variables:
// LDAP (--iam-ldap-*), an object in an S3 bucket (--s3-iam-*) and the account cache in front of
// either (--iam-cache-*). versitygw's Vault (--iam-vault-*) and FreeIPA (--ipa-*) services are
// not implemented: their flags are parsed only to stop the start with an error naming the flag
// (iam-config.ts), instead of "unknown flag" or — worse — quietly running without the accounts.
// Spread into the global options (flags.ts) like the limits.

import { type CliOption, cliOptions, nonEmpty, option } from '@vgwrdma/cli-options';
import { z } from 'zod';

const ldapName = z.string().regex(/^[A-Za-z][A-Za-z0-9-]*$/, 'must be an LDAP attribute name such as uid');
const ldapUrl = z.string().regex(/^ldaps?:\/\/[^/\s]+\/?$/i, 'must be ldap://host:port or ldaps://host:port');
const httpUrl = z.string().regex(/^https?:\/\/\S+$/i, 'must be an http:// or https:// URL');
const classes = z
  .string()
  .transform((v) => v.split(',').map((c) => c.trim()))
  .refine((list) => list.every((c) => /^[A-Za-z][A-Za-z0-9-]*$/.test(c)), {
    message: 'must be comma-separated object class names such as top,account',
  });
const seconds = z
  .string()
  .regex(/^\d{1,7}$/, 'must be a whole number of seconds')
  .transform(Number);

const str = <S extends z.ZodType>(env: string, help: string, schema: S, arg: string) =>
  option(schema, { env: [env], arg, help }).optional();
const withDefault = <S extends z.ZodType>(env: string, help: string, schema: S, arg: string, value: string) =>
  option(schema, { env: [env], arg, help, default: value });
const bool = (env: string, help: string) => option(z.boolean(), { env: [env], default: false, help });

/** What an LDAP store cannot do without, once --iam-ldap-url is given. */
export const LDAP_REQUIRED_FLAG_NAMES = [
  'iam-ldap-bind-dn',
  'iam-ldap-bind-pass',
  'iam-ldap-query-base',
  'iam-ldap-object-classes',
  'iam-ldap-access-atr',
  'iam-ldap-secret-atr',
  'iam-ldap-role-atr',
  'iam-ldap-user-id-atr',
  'iam-ldap-group-id-atr',
] as const;

export const LDAP_FLAG_NAMES = [
  'iam-ldap-url',
  ...LDAP_REQUIRED_FLAG_NAMES,
  'iam-ldap-project-id-atr',
  'iam-ldap-tls-skip-verify',
] as const;

export const S3_IAM_FLAG_NAMES = [
  's3-iam-access',
  's3-iam-secret',
  's3-iam-region',
  's3-iam-bucket',
  's3-iam-endpoint',
  's3-iam-noverify',
] as const;

export const IAM_OPTIONS = {
  'iam-ldap-url': str(
    'VGW_IAM_LDAP_URL',
    'keep accounts in this LDAP server (ldap:// or ldaps://)',
    ldapUrl,
    'URL',
  ),
  'iam-ldap-bind-dn': str(
    'VGW_IAM_LDAP_BIND_DN',
    "LDAP bind DN, e.g. 'cn=admin,dc=example,dc=com'",
    nonEmpty,
    'DN',
  ),
  'iam-ldap-bind-pass': str(
    'VGW_IAM_LDAP_BIND_PASS',
    'LDAP bind password (prefer the environment variable)',
    nonEmpty,
    'PASS',
  ),
  'iam-ldap-query-base': str(
    'VGW_IAM_LDAP_QUERY_BASE',
    "LDAP base DN of the accounts, e.g. 'ou=iam,dc=example,dc=com'",
    nonEmpty,
    'DN',
  ),
  'iam-ldap-object-classes': str(
    'VGW_IAM_LDAP_OBJECT_CLASSES',
    "object classes of account entries, comma separated, e.g. 'top,account'",
    classes,
    'LIST',
  ),
  'iam-ldap-access-atr': str(
    'VGW_IAM_LDAP_ACCESS_ATR',
    'attribute holding the access key id (also the entry RDN)',
    ldapName,
    'ATTR',
  ),
  'iam-ldap-secret-atr': str(
    'VGW_IAM_LDAP_SECRET_ATR',
    'attribute holding the secret access key',
    ldapName,
    'ATTR',
  ),
  'iam-ldap-role-atr': str(
    'VGW_IAM_LDAP_ROLE_ATR',
    'attribute holding the role (user, userplus, admin)',
    ldapName,
    'ATTR',
  ),
  'iam-ldap-user-id-atr': str('VGW_IAM_LDAP_USER_ID_ATR', 'attribute holding the user id', ldapName, 'ATTR'),
  'iam-ldap-group-id-atr': str(
    'VGW_IAM_LDAP_GROUP_ID_ATR',
    'attribute holding the group id',
    ldapName,
    'ATTR',
  ),
  'iam-ldap-project-id-atr': str(
    'VGW_IAM_LDAP_PROJECT_ID_ATR',
    'attribute holding the project id (optional)',
    ldapName,
    'ATTR',
  ),
  'iam-ldap-tls-skip-verify': bool(
    'VGW_IAM_LDAP_TLS_SKIP_VERIFY',
    'ldaps: do not verify the server certificate (insecure)',
  ),
  's3-iam-access': str(
    'VGW_S3_IAM_ACCESS_KEY',
    'access key for the bucket holding users.json',
    nonEmpty,
    'KEY',
  ),
  's3-iam-secret': str(
    'VGW_S3_IAM_SECRET_KEY',
    'secret key for that bucket (prefer the environment variable)',
    nonEmpty,
    'SECRET',
  ),
  's3-iam-region': withDefault(
    'VGW_S3_IAM_REGION',
    'region of the IAM bucket',
    nonEmpty,
    'REGION',
    'us-east-1',
  ),
  's3-iam-bucket': str('VGW_S3_IAM_BUCKET', 'keep accounts as users.json in this bucket', nonEmpty, 'BUCKET'),
  's3-iam-endpoint': str(
    'VGW_S3_IAM_ENDPOINT',
    'S3 endpoint of the IAM bucket (path-style requests)',
    httpUrl,
    'URL',
  ),
  's3-iam-noverify': bool(
    'VGW_S3_IAM_NO_VERIFY',
    'https: do not verify the IAM endpoint certificate (insecure)',
  ),
  'iam-cache-disable': bool('VGW_IAM_CACHE_DISABLE', 'LDAP/S3 IAM: look every request up in the store'),
  'iam-cache-ttl': withDefault(
    'VGW_IAM_CACHE_TTL',
    'LDAP/S3 IAM: seconds an account is served from memory',
    seconds,
    'SECONDS',
    '120',
  ),
  'iam-cache-prune': withDefault(
    'VGW_IAM_CACHE_PRUNE',
    'LDAP/S3 IAM: seconds between sweeps of expired cache entries',
    seconds,
    'SECONDS',
    '3600',
  ),
};

/** versitygw's Vault and FreeIPA flags: accepted by the parser only to be refused by name. */
const UNSUPPORTED: readonly (readonly [string, string, 'string' | 'boolean'])[] = [
  ['iam-vault-endpoint-url', 'VGW_IAM_VAULT_ENDPOINT_URL', 'string'],
  ['iam-vault-namespace', 'VGW_IAM_VAULT_NAMESPACE', 'string'],
  ['iam-vault-secret-storage-path', 'VGW_IAM_VAULT_SECRET_STORAGE_PATH', 'string'],
  ['iam-vault-secret-storage-namespace', 'VGW_IAM_VAULT_SECRET_STORAGE_NAMESPACE', 'string'],
  ['iam-vault-auth-method', 'VGW_IAM_VAULT_AUTH_METHOD', 'string'],
  ['iam-vault-auth-namespace', 'VGW_IAM_VAULT_AUTH_NAMESPACE', 'string'],
  ['iam-vault-mount-path', 'VGW_IAM_VAULT_MOUNT_PATH', 'string'],
  ['iam-vault-root-token', 'VGW_IAM_VAULT_ROOT_TOKEN', 'string'],
  ['iam-vault-role-id', 'VGW_IAM_VAULT_ROLE_ID', 'string'],
  ['iam-vault-role-secret', 'VGW_IAM_VAULT_ROLE_SECRET', 'string'],
  ['iam-vault-server_cert', 'VGW_IAM_VAULT_SERVER_CERT', 'string'],
  ['iam-vault-client_cert', 'VGW_IAM_VAULT_CLIENT_CERT', 'string'],
  ['iam-vault-client_cert_key', 'VGW_IAM_VAULT_CLIENT_CERT_KEY', 'string'],
  ['ipa-host', 'VGW_IPA_HOST', 'string'],
  ['ipa-vault-name', 'VGW_IPA_VAULT_NAME', 'string'],
  ['ipa-user', 'VGW_IPA_USER', 'string'],
  ['ipa-password', 'VGW_IPA_PASSWORD', 'string'],
  ['ipa-insecure', 'VGW_IPA_INSECURE', 'boolean'],
];

/** The Vault and FreeIPA flags, as options of their own (parsed, never resolved). */
export const UNSUPPORTED_IAM_FLAGS: readonly CliOption[] = cliOptions(
  z.object(
    Object.fromEntries(
      UNSUPPORTED.map(([name, env, type]) => [
        name,
        option(type === 'boolean' ? z.boolean() : z.string(), {
          env: [env],
          help: `not supported (${name.startsWith('ipa') ? 'FreeIPA' : 'Vault'} IAM): the start stops naming this flag`,
        }).optional(),
      ]),
    ),
  ),
);
