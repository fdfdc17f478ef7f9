// The built gateway with the LDAP IAM store (--iam-ldap-*) over the run's shared slapd: the shared
// IAM scenario (admin CLI, SDK, AWS CLI, errors, cache TTL), the accounts as real LDAP entries,
// and LDAPS — trusted through NODE_EXTRA_CA_CERTS, refused without it, or --iam-ldap-tls-skip-verify.
import {
  killAllChildren,
  runMain,
  type Slapd,
  sharedSlapd,
  slapdUnavailable,
  startGateway,
} from '@vgwrdma/test-kit';
import { Client } from 'ldapts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { iamStoreScenario } from './helpers/iam-store-scenario.js';

const skip = slapdUnavailable();
if (skip !== undefined) console.warn(`LDAP IAM e2e tests skipped: ${skip}`);

/** An ou of its own under the shared slapd's test base, and the flags for it. */
async function ldapStore(
  url?: string,
): Promise<{ slapd: Slapd; base: string; args: string[]; env: Record<string, string>; secrets: string[] }> {
  const slapd = await sharedSlapd();
  const client = new Client({ url: slapd.url });
  await client.bind(slapd.rootDn, slapd.rootPassword);
  const ou = `e2e-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
  const base = `ou=${ou},${slapd.testBase}`;
  await client.add(base, { objectClass: 'organizationalUnit', ou });
  await client.unbind();
  return {
    slapd,
    base,
    args: [
      '--iam-ldap-url',
      url ?? slapd.url,
      '--iam-ldap-bind-dn',
      slapd.rootDn,
      '--iam-ldap-query-base',
      base,
      '--iam-ldap-object-classes',
      'top,account,extensibleObject',
      '--iam-ldap-access-atr',
      'uid',
      '--iam-ldap-secret-atr',
      'userPassword',
      '--iam-ldap-role-atr',
      'employeeType',
      '--iam-ldap-user-id-atr',
      'uidNumber',
      '--iam-ldap-group-id-atr',
      'gidNumber',
    ],
    // The bind password travels in the environment, as an operator should pass it.
    env: { VGW_IAM_LDAP_BIND_PASS: slapd.rootPassword },
    secrets: [slapd.rootPassword],
  };
}

describe.skipIf(skip !== undefined)('vgwrdma with --iam-ldap-url', () => {
  iamStoreScenario('LDAP', () => ldapStore());

  describe('the directory and TLS', { timeout: 60_000 }, () => {
    let store: Awaited<ReturnType<typeof ldapStore>>;
    beforeAll(async () => {
      store = await ldapStore();
    });
    afterAll(() => killAllChildren());

    it('keeps an account made through the admin API as an LDAP entry', async () => {
      const gw = await startGateway({ globalArgs: store.args, env: store.env });
      try {
        const made = await runMain([
          'admin',
          '-a',
          'e2e-access',
          '-s',
          'e2e-secret-key',
          '-er',
          gw.url,
          'create-user',
          '--access',
          'dana',
          '--secret',
          'dana-secret',
          '--role',
          'userplus',
          '-ui',
          '42',
          '-gi',
          '7',
        ]);
        expect(made.code, made.stderr).toBe(0);
      } finally {
        await gw.stop();
      }
      const client = new Client({ url: store.slapd.url });
      await client.bind(store.slapd.rootDn, store.slapd.rootPassword);
      const { searchEntries } = await client.search(store.base, { filter: '(uid=dana)' });
      await client.unbind();
      expect(searchEntries).toHaveLength(1);
      expect(searchEntries[0]).toMatchObject({
        dn: `uid=dana,${store.base}`,
        userPassword: 'dana-secret',
        employeeType: 'userplus',
        uidNumber: '42',
        gidNumber: '7',
      });
    });

    it('stops with the bind error, and without the password, when the password is wrong', async () => {
      const r = await runMain(
        ['--port', '127.0.0.1:0', '-a', 'e2e-access', '-s', 'e2e-secret-key', ...store.args, 'posix', '/tmp'],
        {
          VGW_IAM_LDAP_BIND_PASS: 'not-the-bind-password',
        },
      );
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/cannot bind to ldap:\/\/127\.0\.0\.1:\d+ as cn=admin/);
      expect(`${r.stdout}${r.stderr}`).not.toContain('not-the-bind-password');
    });

    it('LDAPS: trusts the CA from NODE_EXTRA_CA_CERTS, refuses an unknown one, or skips verification', async () => {
      const tls = await ldapStore(store.slapd.ldapsUrl);
      const refused = await runMain(
        ['--port', '127.0.0.1:0', '-a', 'e2e-access', '-s', 'e2e-secret-key', ...tls.args, 'posix', '/tmp'],
        tls.env,
      );
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/cannot bind to ldaps:.*(certificate|self.signed|issuer)/i);
      for (const [extra, env] of [
        [[], { ...tls.env, NODE_EXTRA_CA_CERTS: tls.slapd.caFile }],
        [['--iam-ldap-tls-skip-verify'], tls.env],
      ] as const) {
        const gw = await startGateway({ globalArgs: [...tls.args, ...extra], env });
        try {
          const listed = await runMain([
            'admin',
            '-a',
            'e2e-access',
            '-s',
            'e2e-secret-key',
            '-er',
            gw.url,
            'list-users',
          ]);
          expect(listed.code, listed.stderr).toBe(0);
        } finally {
          await gw.stop();
        }
      }
    });
  });
});
