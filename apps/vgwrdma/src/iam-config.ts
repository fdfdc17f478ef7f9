// Which account store the command line asks for: --iam-dir (config.ts keeps it as iamDir), LDAP
// (--iam-ldap-url) or an S3 bucket (--s3-iam-endpoint), never two at once; and whether the cache
// sits in front (--iam-cache-*). Every problem is a UsageError naming the flags, so a half
// configured store stops the start instead of running single-user. The secrets (bind password,
// S3 secret key) are only carried here, never printed.

import { cliOptions, type Env, resolveOptions } from '@vgwrdma/cli-options';
import { UsageError } from '@vgwrdma/errors';
import { z } from 'zod';
import type { LdapStoreOptions } from './iam/ldap-account-store.js';
import type { S3StoreOptions } from './iam/s3-account-store.js';
import {
  IAM_OPTIONS,
  LDAP_FLAG_NAMES,
  LDAP_REQUIRED_FLAG_NAMES,
  S3_IAM_FLAG_NAMES,
  UNSUPPORTED_IAM_FLAGS,
} from './iam-flags.js';

export interface IamCacheConfig {
  readonly ttlMs: number;
  readonly pruneMs: number;
}

export type IamServiceConfig = (
  | { readonly kind: 'ldap'; readonly ldap: LdapStoreOptions }
  | { readonly kind: 's3'; readonly s3: S3StoreOptions }
) & {
  /** Absent with --iam-cache-disable. */
  readonly cache?: IamCacheConfig;
};

const IAM_SCHEMA = z.object(IAM_OPTIONS);
const IAM_FLAG_LIST = cliOptions(IAM_SCHEMA);

type Given = Readonly<Record<string, string | boolean | undefined>>;

function flagOrEnvGiven(name: string, env: readonly string[], given: Given, vars: Env): boolean {
  return given[name] !== undefined || env.some((e) => vars[e] !== undefined);
}

/** Vault and FreeIPA are not implemented: refuse their flags (or environment variables) by name. */
function refuseUnsupported(given: Given, vars: Env): void {
  for (const flag of UNSUPPORTED_IAM_FLAGS) {
    if (!flagOrEnvGiven(flag.name, flag.env, given, vars)) continue;
    const service = flag.name.startsWith('ipa')
      ? 'the FreeIPA IAM service (--ipa-*)'
      : 'the Vault IAM service (--iam-vault-*)';
    throw new UsageError(
      `--${flag.name} (${flag.env.join(', ')}): ${service} is not supported by vgwrdma; ` +
        'keep accounts in --iam-dir, LDAP (--iam-ldap-url) or an S3 bucket (--s3-iam-endpoint) — see docs/compatibility.md',
    );
  }
}

function missing(values: Record<string, unknown>, names: readonly string[]): string[] {
  return names.filter((n) => values[n] === undefined);
}

export function iamServiceConfig(
  given: Given,
  vars: Env,
  iamDir: string | undefined,
): IamServiceConfig | undefined {
  refuseUnsupported(given, vars);
  const v = resolveOptions(IAM_SCHEMA, given, vars);
  const envOf = (name: string) => IAM_FLAG_LIST.find((f) => f.name === name)?.env ?? [];
  const anyGiven = (names: readonly string[]) =>
    names.filter((n) => n !== 's3-iam-region' && flagOrEnvGiven(n, envOf(n), given, vars));

  const ldapGiven = anyGiven(LDAP_FLAG_NAMES);
  const s3Given = anyGiven(S3_IAM_FLAG_NAMES);
  const chosen = [
    ...(iamDir === undefined ? [] : ['--iam-dir']),
    ...(v['iam-ldap-url'] === undefined ? [] : ['--iam-ldap-url']),
    ...(v['s3-iam-endpoint'] === undefined ? [] : ['--s3-iam-endpoint']),
  ];
  if (chosen.length > 1)
    throw new UsageError(`choose one IAM store: ${chosen.join(' and ')} were both given`);
  if (ldapGiven.length > 0 && v['iam-ldap-url'] === undefined)
    throw new UsageError(
      `--${ldapGiven[0]} needs --iam-ldap-url (VGW_IAM_LDAP_URL): the LDAP server to keep accounts in`,
    );
  if (s3Given.length > 0 && v['s3-iam-endpoint'] === undefined)
    throw new UsageError(
      `--${s3Given[0]} needs --s3-iam-endpoint (VGW_S3_IAM_ENDPOINT): the S3 endpoint of the IAM bucket`,
    );

  // Read only after the `missing` check of the same names below.
  const r = v as { [K in keyof typeof v]-?: NonNullable<(typeof v)[K]> };
  const cache = v['iam-cache-disable']
    ? undefined
    : { ttlMs: v['iam-cache-ttl'] * 1000, pruneMs: Math.max(1, v['iam-cache-prune']) * 1000 };
  const withCache = cache === undefined ? {} : { cache };

  if (v['iam-ldap-url'] !== undefined) {
    const need = missing(v, LDAP_REQUIRED_FLAG_NAMES);
    if (need.length > 0)
      throw new UsageError(
        `the LDAP IAM service needs ${need.map((n) => `--${n} (${envOf(n).join(', ')})`).join(', ')}`,
      );
    return {
      kind: 'ldap',
      ldap: {
        url: r['iam-ldap-url'],
        bindDn: r['iam-ldap-bind-dn'],
        bindPassword: r['iam-ldap-bind-pass'],
        queryBase: r['iam-ldap-query-base'],
        objectClasses: r['iam-ldap-object-classes'],
        attributes: {
          access: r['iam-ldap-access-atr'],
          secret: r['iam-ldap-secret-atr'],
          role: r['iam-ldap-role-atr'],
          userId: r['iam-ldap-user-id-atr'],
          groupId: r['iam-ldap-group-id-atr'],
          ...(v['iam-ldap-project-id-atr'] === undefined ? {} : { projectId: v['iam-ldap-project-id-atr'] }),
        },
        tlsSkipVerify: v['iam-ldap-tls-skip-verify'],
      },
      ...withCache,
    };
  }
  if (v['s3-iam-endpoint'] !== undefined) {
    const need = missing(v, ['s3-iam-access', 's3-iam-secret', 's3-iam-bucket']);
    if (need.length > 0)
      throw new UsageError(
        `the S3 IAM service needs ${need.map((n) => `--${n} (${envOf(n).join(', ')})`).join(', ')}`,
      );
    return {
      kind: 's3',
      s3: {
        endpoint: r['s3-iam-endpoint'],
        region: r['s3-iam-region'],
        bucket: r['s3-iam-bucket'],
        access: r['s3-iam-access'],
        secret: r['s3-iam-secret'],
        noVerify: v['s3-iam-noverify'],
      },
      ...withCache,
    };
  }
  return undefined;
}
