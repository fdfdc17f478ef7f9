// The IAM store flags (iam-flags.ts, iam-config.ts): versitygw's names and environment variables
// for LDAP, the S3 bucket and the cache; one store at a time; a half-configured store is an error
// naming the missing flags; Vault and FreeIPA flags stop the start by name.

import { describe, expect, it } from 'vitest';
import { parseCommandLine } from '../src/config.js';
import { flagReader } from './helpers/flag-reader.js';
import { LDAP_ATTRIBUTES, LDAP_OBJECT_CLASSES, ldapFlags } from './helpers/ldap-directory.js';

/** `vgwrdma <argv> posix data` with the root keys and whatever else the test adds to the environment. */
const { read: serve, refusal: usageError } = flagReader((config) => config);

const LDAP = ldapFlags({
  url: 'ldaps://ldap.example.com:636',
  bindDn: 'cn=admin,dc=example,dc=com',
  queryBase: 'ou=iam,dc=example,dc=com',
  objectClasses: 'top, account,extensibleObject',
});

describe('IAM store flags', () => {
  it('configures LDAP, the bind password from VGW_IAM_LDAP_BIND_PASS, with the default cache', () => {
    const config = serve(LDAP, { VGW_IAM_LDAP_BIND_PASS: 'pw' });
    expect(config.iamService).toEqual({
      kind: 'ldap',
      ldap: {
        url: 'ldaps://ldap.example.com:636',
        bindDn: 'cn=admin,dc=example,dc=com',
        bindPassword: 'pw',
        queryBase: 'ou=iam,dc=example,dc=com',
        objectClasses: LDAP_OBJECT_CLASSES,
        attributes: LDAP_ATTRIBUTES,
        tlsSkipVerify: false,
      },
      cache: { ttlMs: 120_000, pruneMs: 3_600_000 },
    });
    expect(config.iamDir).toBeUndefined();
  });

  it('takes every LDAP setting from versitygw environment variables too', () => {
    const env = {
      VGW_IAM_LDAP_URL: 'ldap://127.0.0.1:389',
      VGW_IAM_LDAP_BIND_DN: 'cn=a',
      VGW_IAM_LDAP_BIND_PASS: 'pw',
      VGW_IAM_LDAP_QUERY_BASE: 'ou=x',
      VGW_IAM_LDAP_OBJECT_CLASSES: 'top',
      VGW_IAM_LDAP_ACCESS_ATR: 'cn',
      VGW_IAM_LDAP_SECRET_ATR: 'description',
      VGW_IAM_LDAP_ROLE_ATR: 'title',
      VGW_IAM_LDAP_USER_ID_ATR: 'uidNumber',
      VGW_IAM_LDAP_GROUP_ID_ATR: 'gidNumber',
      VGW_IAM_LDAP_PROJECT_ID_ATR: 'departmentNumber',
      VGW_IAM_LDAP_TLS_SKIP_VERIFY: 'true',
      VGW_IAM_CACHE_TTL: '5',
      VGW_IAM_CACHE_PRUNE: '30',
    };
    const service = serve([], env).iamService;
    expect(service).toMatchObject({
      kind: 'ldap',
      ldap: {
        url: 'ldap://127.0.0.1:389',
        attributes: { projectId: 'departmentNumber' },
        tlsSkipVerify: true,
      },
      cache: { ttlMs: 5000, pruneMs: 30_000 },
    });
  });

  it('names every missing LDAP flag with its environment variable', () => {
    const message = usageError(['--iam-ldap-url', 'ldap://h:389', '--iam-ldap-bind-dn', 'cn=a']);
    expect(message).toContain('--iam-ldap-bind-pass (VGW_IAM_LDAP_BIND_PASS)');
    expect(message).toContain('--iam-ldap-group-id-atr (VGW_IAM_LDAP_GROUP_ID_ATR)');
    expect(message).not.toContain('--iam-ldap-bind-dn (');
  });

  it('refuses attribute names and URLs that are not one', () => {
    expect(
      usageError([...LDAP, '--iam-ldap-access-atr', 'uid)(cn=*'], { VGW_IAM_LDAP_BIND_PASS: 'p' }),
    ).toMatch(/--iam-ldap-access-atr.*must be an LDAP attribute name/s);
    expect(usageError(['--iam-ldap-url', 'http://h'])).toMatch(/--iam-ldap-url.*ldap:\/\/host:port/s);
  });

  it('configures the S3 bucket store, secret from VGW_S3_IAM_SECRET_KEY, cache off on request', () => {
    const config = serve(
      [
        '--s3-iam-endpoint',
        'http://127.0.0.1:9000',
        '--s3-iam-access',
        'k',
        '--s3-iam-bucket',
        'iam',
        '--iam-cache-disable',
      ],
      { VGW_S3_IAM_SECRET_KEY: 's' },
    );
    expect(config.iamService).toEqual({
      kind: 's3',
      s3: {
        endpoint: 'http://127.0.0.1:9000',
        region: 'us-east-1',
        bucket: 'iam',
        access: 'k',
        secret: 's',
        noVerify: false,
      },
    });
  });

  it('names the missing S3 IAM flags', () => {
    expect(usageError(['--s3-iam-endpoint', 'http://h:1'])).toMatch(
      /--s3-iam-access \(VGW_S3_IAM_ACCESS_KEY\), --s3-iam-secret \(VGW_S3_IAM_SECRET_KEY\), --s3-iam-bucket \(VGW_S3_IAM_BUCKET\)/,
    );
  });

  it('takes one store only, and store flags only with their store', () => {
    expect(usageError(['--iam-dir', 'x', '--s3-iam-endpoint', 'http://h:1'])).toMatch(
      /choose one IAM store: --iam-dir and --s3-iam-endpoint/,
    );
    expect(usageError(['--iam-ldap-bind-dn', 'cn=a'])).toMatch(/--iam-ldap-bind-dn needs --iam-ldap-url/);
    expect(usageError(['--s3-iam-bucket', 'b'])).toMatch(/--s3-iam-bucket needs --s3-iam-endpoint/);
    // The region has a default, so on its own it changes nothing.
    expect(serve(['--s3-iam-region', 'eu-west-1']).iamService).toBeUndefined();
  });

  it.each([
    ['--iam-vault-endpoint-url', 'http://vault:8200', 'Vault'],
    ['--iam-vault-root-token', 't', 'Vault'],
    ['--iam-vault-server_cert', '/c.pem', 'Vault'],
    ['--ipa-host', 'https://ipa.example.test', 'FreeIPA'],
    ['--ipa-insecure', undefined, 'FreeIPA'],
  ])('refuses %s as not supported, naming the flag', (flag, value, service) => {
    const message = usageError(value === undefined ? [flag] : [flag, value]);
    expect(message).toContain(`${flag} (`);
    expect(message).toContain(`the ${service} IAM service`);
    expect(message).toContain('is not supported by vgwrdma');
  });

  it('refuses the Vault and IPA environment variables the same way', () => {
    expect(usageError([], { VGW_IAM_VAULT_ENDPOINT_URL: 'http://vault:8200' })).toMatch(
      /--iam-vault-endpoint-url \(VGW_IAM_VAULT_ENDPOINT_URL\): the Vault IAM service .* not supported/,
    );
    expect(usageError([], { VGW_IPA_USER: 'admin' })).toMatch(/--ipa-user \(VGW_IPA_USER\): the FreeIPA/);
  });

  it('lists the LDAP, S3 IAM and cache flags in --help, with their environment variables', () => {
    const help = parseCommandLine(['--help'], {}, '/cwd');
    if (help.kind !== 'help') throw new Error('expected help');
    for (const [flag, env] of [
      ['--iam-ldap-url', 'VGW_IAM_LDAP_URL'],
      ['--iam-ldap-bind-pass', 'VGW_IAM_LDAP_BIND_PASS'],
      ['--s3-iam-endpoint', 'VGW_S3_IAM_ENDPOINT'],
      ['--iam-cache-ttl', 'VGW_IAM_CACHE_TTL'],
    ])
      expect(help.text).toMatch(new RegExp(`${flag} .*env ${env}`));
  });
});
